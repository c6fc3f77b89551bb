package io.turboparquet.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class FailureSignatureTest {
  private static final FuzzCase FLIP = new FuzzCase("s.parquet", Mutation.BIT_FLIP, 1);
  private static final FuzzCase SWAP = new FuzzCase("s.parquet", Mutation.PAGE_SWAP, 1);

  @Test
  void exceptionsOfOneTypeThrownFromOnePlaceAreOneKind() {
    CaseResult a = new CaseResult(Outcome.RAW_EXCEPTION,
        "java.io.EOFException: [a.parquet] wanted 9 bytes\n    at x.Y.read(Y.java:10)\n    at x.Z.next(Z.java:3)");
    CaseResult b = new CaseResult(Outcome.RAW_EXCEPTION,
        "java.io.EOFException: [b.parquet] wanted 17 bytes\n    at x.Y.read(Y.java:12)\n    at x.Z.next(Z.java:3)");
    CaseResult other = new CaseResult(Outcome.RAW_EXCEPTION,
        "java.io.EOFException: [b.parquet] wanted 17 bytes\n    at x.W.read(W.java:12)\n    at x.Z.next(Z.java:3)");
    assertEquals(FuzzCampaign.signature(FLIP, a), FuzzCampaign.signature(SWAP, b));
    assertNotEquals(FuzzCampaign.signature(FLIP, a), FuzzCampaign.signature(FLIP, other));
  }

  @Test
  void brokenBatchesAreKeyedByTheRuleNotTheColumnOrNumbers() {
    CaseResult a = new CaseResult(Outcome.BROKEN_BATCH,
        "row group 0 rows from 0 column a.b: levels rep 0 def 3 at entry 0 above the maxima 1/2 (ReadMode[x=1])");
    CaseResult b = new CaseResult(Outcome.BROKEN_BATCH,
        "row group 2 rows from 7 column c: levels rep 3 def 5 at entry 9 above the maxima 2/8 (ReadMode[x=2])");
    CaseResult c = new CaseResult(Outcome.BROKEN_BATCH, "row group 0 rows from 0 column c: first repetition level 1");
    assertEquals(FuzzCampaign.signature(FLIP, a), FuzzCampaign.signature(SWAP, b));
    assertNotEquals(FuzzCampaign.signature(FLIP, a), FuzzCampaign.signature(FLIP, c));
  }

  @Test
  void wrongValuesAreKeyedByStrategyAndWhetherTheCountsDiffer() {
    CaseResult counts = new CaseResult(Outcome.WRONG_VALUES,
        "ours id\tINT32\t1\t0\taa parquet-java id\tINT32\t8\t0\tbb");
    CaseResult values = new CaseResult(Outcome.WRONG_VALUES,
        "ours id\tINT32\t8\t0\taa parquet-java id\tINT32\t8\t0\tbb");
    assertNotEquals(FuzzCampaign.signature(FLIP, counts), FuzzCampaign.signature(FLIP, values));
    assertNotEquals(FuzzCampaign.signature(FLIP, values), FuzzCampaign.signature(SWAP, values));
    assertEquals(FuzzCampaign.signature(FLIP, values), FuzzCampaign.signature(FLIP,
        new CaseResult(Outcome.WRONG_VALUES, "ours x\tDOUBLE\t3\t1\tcc parquet-java x\tDOUBLE\t3\t1\tdd")));
  }
}
