package io.turboparquet.io;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.apache.hadoop.fs.statistics.StreamStatisticNames;

/**
 * What an object store served one stream: its GET requests and the bytes they delivered, as the
 * stream's own IOStatistics count them (S3A: {@code action_http_get_request}, {@code
 * stream_read_bytes}). Per stream, not per file system, because a file system is shared by every
 * scan that runs at once (Drill caches one per user). Streams that count no requests (local files,
 * HDFS) report none. Read it before the stream closes.
 */
public record StoreReads(long requests, long bytes) {
  public static final StoreReads NONE = new StoreReads(0, 0);

  public static StoreReads of(FSDataInputStream in) {
    IOStatistics statistics = IOStatisticsSupport.retrieveIOStatistics(in);
    if (statistics == null) {
      return NONE;
    }
    Long requests = statistics.counters().get(StoreStatisticNames.ACTION_HTTP_GET_REQUEST);
    if (requests == null) {
      return NONE;
    }
    Long bytes = statistics.counters().get(StreamStatisticNames.STREAM_READ_BYTES);
    return new StoreReads(requests, bytes == null ? 0 : bytes);
  }
}
