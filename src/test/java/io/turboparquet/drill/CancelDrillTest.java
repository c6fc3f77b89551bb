package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import io.turboparquet.testing.BombFiles;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.drill.common.exceptions.UserException;
import org.apache.drill.exec.memory.BufferAllocator;
import org.apache.drill.exec.proto.UserBitShared.QueryId;
import org.apache.drill.exec.proto.UserBitShared.QueryResult.QueryState;
import org.apache.drill.exec.rpc.ConnectionThrottle;
import org.apache.drill.exec.rpc.user.QueryDataBatch;
import org.apache.drill.exec.rpc.user.UserResultsListener;
import org.apache.drill.test.ClusterTest;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * A query cancelled by its client while turbo-parquet decodes a crafted file that would keep it busy
 * for hours (BombFiles' dictionary bomb: 256 TiB of strings from a 1 MiB file, under a pushed filter
 * that no row passes, so one call of the scan passes over batch after batch): turbo-parquet's code
 * leaves every thread within a second of the cancel, the query ends as CANCELED (Drill's own
 * teardown takes a few seconds more on a loaded machine), Drill's direct memory goes back to where
 * it was, and the drillbit answers the next query.
 */
public class CancelDrillTest extends ClusterTest {
  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1));
    BombFiles.dictionaryBomb(dirTestWatcher.getRootDir().toPath(), 1 << 20, 1 << 26, 4);
  }

  @Test
  public void aCancelledCraftedScanEndsAndTheNextQueryIsAnswered() throws Exception {
    BufferAllocator allocator = cluster.drillbit().getContext().getAllocator();
    long before = allocator.getAllocatedMemory();
    java.util.Set<Thread> earlier = scanThreads().keySet(); // threads of earlier test classes in this JVM
    earlier.forEach(t -> System.out.println("CancelDrillTest: already running turbo-parquet code: " + t.getName()));
    CompletableFuture<QueryId> id = new CompletableFuture<>();
    CompletableFuture<QueryState> end = new CompletableFuture<>();
    client.queryBuilder().sql("select count(*) from table(dfs.`dictionary_bomb.parquet`(type => '"
        + TurboParquetFormatConfig.NAME + "')) where v < 'a'").withListener(new UserResultsListener() {
          @Override
          public void queryIdArrived(QueryId queryId) {
            id.complete(queryId);
          }

          @Override
          public void submissionFailed(UserException e) {
            end.completeExceptionally(e);
          }

          @Override
          public void dataArrived(QueryDataBatch result, ConnectionThrottle throttle) {
            result.release();
          }

          @Override
          public void queryCompleted(QueryState state) {
            end.complete(state);
          }
        });
    QueryId queryId = id.get(60, TimeUnit.SECONDS);
    Thread.sleep(3_000); // well into the scan: planning is done and batches are being decoded
    assertTrue("the query ended by itself", !end.isDone());
    long cancelled = System.nanoTime();
    client.client().cancelQuery(queryId).get(10, TimeUnit.SECONDS);
    long scanEnded = -1;
    Map<Thread, StackTraceElement[]> scanning = Map.of();
    while (scanEnded < 0 && System.nanoTime() - cancelled < 10_000_000_000L) {
      scanning = scanThreads();
      scanning.keySet().removeAll(earlier);
      if (scanning.isEmpty()) {
        scanEnded = (System.nanoTime() - cancelled) / 1_000_000;
      }
      Thread.sleep(10);
    }
    QueryState state = end.get(30, TimeUnit.SECONDS);
    long millis = (System.nanoTime() - cancelled) / 1_000_000;
    assertEquals(QueryState.CANCELED, state);
    assertTrue("turbo-parquet still scanning 10 s after the cancel: " + describe(scanning), scanEnded >= 0);
    assertTrue("the scan ended " + scanEnded + " ms after the cancel", scanEnded < 1_000);
    assertNotNull(Result.of(client, "select count(*) from (values(1))").cells());
    long deadline = System.currentTimeMillis() + 10_000;
    while (allocator.getAllocatedMemory() != before && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
    }
    assertEquals("the drillbit's direct memory after the cancelled query", before, allocator.getAllocatedMemory());
    System.out.println("CancelDrillTest: the scan ended " + scanEnded + " ms after the cancel, the query "
        + millis + " ms after it");
  }

  /** Threads other than this one running turbo-parquet's code (the fragment's, the scan and decode pools'). */
  private static Map<Thread, StackTraceElement[]> scanThreads() {
    Map<Thread, StackTraceElement[]> out = new HashMap<>();
    Thread.getAllStackTraces().forEach((t, stack) -> {
      if (t != Thread.currentThread()
          && Arrays.stream(stack).anyMatch(f -> f.getClassName().startsWith("io.turboparquet."))) {
        out.put(t, stack);
      }
    });
    return out;
  }

  private static String describe(Map<Thread, StackTraceElement[]> threads) {
    StringBuilder b = new StringBuilder();
    threads.forEach((t, stack) -> {
      b.append("\n").append(t.getName()).append(' ').append(t.getState());
      Arrays.stream(stack).limit(12).forEach(f -> b.append("\n    ").append(f));
    });
    return b.toString();
  }
}
