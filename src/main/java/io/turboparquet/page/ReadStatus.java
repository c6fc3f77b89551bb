package io.turboparquet.page;

/**
 * What an asynchronous page read hands back: a page (null at the end of the chunk) or the
 * exception that stopped the read. Read times are counted by the chunk's stream.
 */
record ReadStatus(Page page, Throwable error) {
  static final ReadStatus END = new ReadStatus(null, null);

  static ReadStatus failed(Throwable error) {
    return new ReadStatus(null, error);
  }
}
