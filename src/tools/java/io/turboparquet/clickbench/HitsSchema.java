package io.turboparquet.clickbench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/**
 * The 105 columns of ClickBench's hits.parquet, in its order, with its names and types (every
 * column required): SMALLINT as INT32 (INT_16), INTEGER as INT32, BIGINT as INT64, the times
 * (EventTime, ClientEventTime, LocalEventTime) as INT64 epoch seconds without annotation,
 * EventDate as INT32 (UINT_16) days since 1970, text as BINARY (STRING). Each column carries how
 * its value is made from a {@link Hit}.
 */
final class HitsSchema {
  enum Kind { INT16, INT32, INT64, EPOCH_SECONDS, DAYS_UINT16, STRING }

  /** One column: numbers come from {@code number}, text from {@code text}. */
  record Column(String name, Kind kind, ToLongFunction<Hit> number, Function<Hit, byte[]> text) {}

  private static final byte[] EMPTY = new byte[0];
  private static final byte[][] CHARSETS = {HitPools.utf8("utf-8"), HitPools.utf8("windows-1251"), HitPools.utf8("koi8-r")};
  private static final byte[][] LANGUAGES = {HitPools.utf8("ru"), HitPools.utf8("en"), HitPools.utf8("uk"), HitPools.utf8("de")};
  private static final byte[][] COUNTRIES = {HitPools.utf8("RU"), HitPools.utf8("UA"), HitPools.utf8("BY"), HitPools.utf8("KZ")};
  private static final byte[][] COLORS = {HitPools.utf8("5"), HitPools.utf8("E"), HitPools.utf8("F"), HitPools.utf8("D")};
  private static final byte[][] DIGITS = digits();
  private static final byte[][] MODELS = models();

  static final List<Column> COLUMNS = columns();

  private HitsSchema() {}

  static MessageType messageType() {
    Types.MessageTypeBuilder message = Types.buildMessage();
    for (Column c : COLUMNS) {
      switch (c.kind()) {
        case INT16 -> message.required(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.intType(16, true)).named(c.name());
        case INT32 -> message.required(PrimitiveTypeName.INT32).named(c.name());
        case INT64, EPOCH_SECONDS -> message.required(PrimitiveTypeName.INT64).named(c.name());
        case DAYS_UINT16 -> message.required(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.intType(16, false))
            .named(c.name());
        case STRING -> message.required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(c.name());
      }
    }
    return message.named("schema");
  }

  private static List<Column> columns() {
    List<Column> c = new ArrayList<>();
    int64(c, "WatchID", h -> h.random.nextLong() >>> 1);
    int16(c, "JavaEnable", h -> h.flag(70));
    text(c, "Title", h -> h.pools.pageTitle[h.page]);
    int16(c, "GoodEvent", h -> 1);
    c.add(new Column("EventTime", Kind.EPOCH_SECONDS, h -> h.eventTime, null));
    c.add(new Column("EventDate", Kind.DAYS_UINT16, h -> h.eventTime / Hit.SECONDS_PER_DAY, null));
    int32(c, "CounterID", h -> h.counterId);
    int32(c, "ClientIP", h -> h.clientIp);
    int32(c, "RegionID", h -> 1 + (int) (3_000 * Math.pow(h.userAttribute(1, 1_000) / 1_000.0, 3)));
    int64(c, "UserID", h -> h.userId);
    int16(c, "CounterClass", h -> h.random.nextInt(3));
    int16(c, "OS", h -> h.userAttribute(2, 90));
    int16(c, "UserAgent", h -> h.userAttribute(3, 60));
    text(c, "URL", h -> h.pools.pageUrl[h.page]);
    text(c, "Referer", h -> h.referer < 0 ? EMPTY : h.pools.referer[h.referer]);
    int16(c, "IsRefresh", h -> h.flag(9));
    int16(c, "RefererCategoryID", h -> h.referer < 0 ? 0 : h.referer % 40);
    int32(c, "RefererRegionID", h -> h.referer < 0 ? 0 : h.referer % 500);
    int16(c, "URLCategoryID", h -> h.page % 40);
    int32(c, "URLRegionID", h -> h.page % 700);
    int16(c, "ResolutionWidth", h -> Hit.WIDTHS[h.userAttribute(4, Hit.WIDTHS.length)]);
    int16(c, "ResolutionHeight", h -> Hit.HEIGHTS[h.userAttribute(4, Hit.HEIGHTS.length)]);
    int16(c, "ResolutionDepth", h -> h.userAttribute(5, 3) == 0 ? 24 : 32);
    int16(c, "FlashMajor", h -> h.userAttribute(6, 12));
    int16(c, "FlashMinor", h -> h.userAttribute(7, 10));
    text(c, "FlashMinor2", h -> DIGITS[h.userAttribute(8, 10)]);
    int16(c, "NetMajor", h -> h.userAttribute(9, 5));
    int16(c, "NetMinor", h -> h.userAttribute(10, 10));
    int16(c, "UserAgentMajor", h -> h.userAttribute(11, 40));
    text(c, "UserAgentMinor", h -> DIGITS[h.userAttribute(12, 10)]);
    int16(c, "CookieEnable", h -> h.flag(97));
    int16(c, "JavascriptEnable", h -> h.flag(95));
    int16(c, "IsMobile", h -> h.mobileModel < 0 ? 0 : 1);
    int16(c, "MobilePhone", h -> h.mobileModel < 0 ? 0 : 1 + h.mobileModel % 7);
    text(c, "MobilePhoneModel", h -> h.mobileModel < 0 ? EMPTY : MODELS[h.mobileModel]);
    text(c, "Params", h -> EMPTY);
    int32(c, "IPNetworkID", h -> h.userAttribute(13, 50_000));
    int16(c, "TraficSourceID", h -> h.trafficSource);
    int16(c, "SearchEngineID", h -> h.searchEngine);
    text(c, "SearchPhrase", h -> h.phrase < 0 ? EMPTY : h.pools.phrase[h.phrase]);
    int16(c, "AdvEngineID", h -> h.advEngine);
    int16(c, "IsArtifical", h -> h.flag(1));
    int16(c, "WindowClientWidth", h -> Math.max(0, Hit.WIDTHS[h.userAttribute(4, Hit.WIDTHS.length)] - 16 * h.random.nextInt(3)));
    int16(c, "WindowClientHeight", h -> Math.max(0, Hit.HEIGHTS[h.userAttribute(4, Hit.HEIGHTS.length)] - 100 - 20 * h.random.nextInt(3)));
    int16(c, "ClientTimeZone", h -> h.userAttribute(14, 3) == 0 ? -1 : 4);
    c.add(new Column("ClientEventTime", Kind.EPOCH_SECONDS, h -> h.eventTime + h.random.nextInt(20) - 10, null));
    int16(c, "SilverlightVersion1", h -> h.userAttribute(15, 6));
    int16(c, "SilverlightVersion2", h -> h.userAttribute(16, 3));
    int32(c, "SilverlightVersion3", h -> h.userAttribute(17, 60_000));
    int16(c, "SilverlightVersion4", h -> h.userAttribute(18, 4));
    text(c, "PageCharset", h -> CHARSETS[h.page % CHARSETS.length]);
    int32(c, "CodeVersion", h -> 500 + h.page % 300);
    int16(c, "IsLink", h -> h.flag(7));
    int16(c, "IsDownload", h -> h.flag(2));
    int16(c, "IsNotBounce", h -> h.flag(30));
    int64(c, "FUniqID", h -> h.random.nextInt(4) == 0 ? 0 : h.userHash >>> 3);
    text(c, "OriginalURL", h -> EMPTY);
    int32(c, "HID", h -> h.random.nextInt());
    int16(c, "IsOldCounter", h -> 0);
    int16(c, "IsEvent", h -> h.flag(1));
    int16(c, "IsParameter", h -> h.flag(1));
    int16(c, "DontCountHits", h -> h.flag(6));
    int16(c, "WithHash", h -> h.flag(3));
    text(c, "HitColor", h -> COLORS[h.random.nextInt(COLORS.length)]);
    c.add(new Column("LocalEventTime", Kind.EPOCH_SECONDS, h -> h.eventTime + 4 * 3_600, null));
    int16(c, "Age", h -> h.userAttribute(19, 6) * 11);
    int16(c, "Sex", h -> h.userAttribute(20, 3));
    int16(c, "Income", h -> h.userAttribute(21, 4));
    int16(c, "Interests", h -> h.userAttribute(22, 1_000));
    int16(c, "Robotness", h -> h.flag(2));
    int32(c, "RemoteIP", h -> h.clientIp ^ 0x5A5A);
    int32(c, "WindowName", h -> h.random.nextInt(10) < 7 ? -1 : h.random.nextInt());
    int32(c, "OpenerName", h -> h.random.nextInt(10) < 8 ? -1 : h.random.nextInt());
    int16(c, "HistoryLength", h -> h.random.nextInt(20));
    text(c, "BrowserLanguage", h -> LANGUAGES[h.userAttribute(23, LANGUAGES.length)]);
    text(c, "BrowserCountry", h -> COUNTRIES[h.userAttribute(24, COUNTRIES.length)]);
    text(c, "SocialNetwork", h -> EMPTY);
    text(c, "SocialAction", h -> EMPTY);
    int16(c, "HTTPError", h -> h.random.nextInt(200) == 0 ? 404 : 0);
    int32(c, "SendTiming", h -> h.random.nextInt(2_000));
    int32(c, "DNSTiming", h -> h.random.nextInt(300));
    int32(c, "ConnectTiming", h -> h.random.nextInt(500));
    int32(c, "ResponseStartTiming", h -> h.random.nextInt(1_500));
    int32(c, "ResponseEndTiming", h -> h.random.nextInt(3_000));
    int32(c, "FetchTiming", h -> h.random.nextInt(4_000));
    int16(c, "SocialSourceNetworkID", h -> 0);
    text(c, "SocialSourcePage", h -> EMPTY);
    int64(c, "ParamPrice", h -> h.random.nextInt(100) == 0 ? h.random.nextInt(100_000) : 0);
    text(c, "ParamOrderID", h -> EMPTY);
    text(c, "ParamCurrency", h -> h.random.nextInt(100) == 0 ? COUNTRIES[0] : EMPTY);
    int16(c, "ParamCurrencyID", h -> 0);
    text(c, "OpenstatServiceName", h -> EMPTY);
    text(c, "OpenstatCampaignID", h -> EMPTY);
    text(c, "OpenstatAdID", h -> EMPTY);
    text(c, "OpenstatSourceID", h -> EMPTY);
    text(c, "UTMSource", h -> EMPTY);
    text(c, "UTMMedium", h -> EMPTY);
    text(c, "UTMCampaign", h -> EMPTY);
    text(c, "UTMContent", h -> EMPTY);
    text(c, "UTMTerm", h -> EMPTY);
    text(c, "FromTag", h -> EMPTY);
    int16(c, "HasGCLID", h -> h.flag(1));
    int64(c, "RefererHash", h -> h.referer < 0 ? 0 : h.pools.refererHash[h.referer]);
    int64(c, "URLHash", h -> h.pools.pageUrlHash[h.page]);
    int32(c, "CLID", h -> h.random.nextInt(50) == 0 ? h.random.nextInt(1_000) : 0);
    return List.copyOf(c);
  }

  private static void int16(List<Column> c, String name, ToLongFunction<Hit> value) {
    c.add(new Column(name, Kind.INT16, value, null));
  }

  private static void int32(List<Column> c, String name, ToLongFunction<Hit> value) {
    c.add(new Column(name, Kind.INT32, value, null));
  }

  private static void int64(List<Column> c, String name, ToLongFunction<Hit> value) {
    c.add(new Column(name, Kind.INT64, value, null));
  }

  private static void text(List<Column> c, String name, Function<Hit, byte[]> value) {
    c.add(new Column(name, Kind.STRING, null, value));
  }

  private static byte[][] digits() {
    byte[][] d = new byte[10][];
    for (int i = 0; i < d.length; i++) {
      d[i] = HitPools.utf8(Integer.toString(i));
    }
    return d;
  }

  private static byte[][] models() {
    byte[][] m = new byte[Hit.MobileModels.NAMES.length][];
    for (int i = 0; i < m.length; i++) {
      m[i] = HitPools.utf8(Hit.MobileModels.NAMES[i]);
    }
    return m;
  }
}
