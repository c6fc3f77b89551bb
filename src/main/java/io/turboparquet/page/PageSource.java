package io.turboparquet.page;

import java.io.IOException;

/** The pages of one column chunk in file order, dictionary page first. */
public interface PageSource extends AutoCloseable {
  /** The next page, which the caller then owns, or null after the last one. */
  Page next() throws IOException;

  /** Stops reading and releases every buffer the source still holds. */
  @Override
  void close();
}
