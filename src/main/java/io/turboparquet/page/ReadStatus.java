package io.turboparquet.page;

/**
 * What an asynchronous page read hands back: a page (null at the end of the chunk) or the
 * exception that stopped the read, with the time the read took.
 */
record ReadStatus(Page page, Throwable error, long readNanos) {
  static final ReadStatus END = new ReadStatus(null, null, 0);

  static ReadStatus failed(Throwable error) {
    return new ReadStatus(null, error, 0);
  }
}
