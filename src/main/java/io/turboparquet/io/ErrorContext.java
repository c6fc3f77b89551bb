package io.turboparquet.io;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;

/**
 * Where in a file an error happened: the file and, as far as the failing code knows them, the row
 * group, the column and the page's file offset. Every corruption and unsupported-feature error says
 * where through this class, so all of them read {@code [file] row group 3 column a.b, page at offset
 * 4: what} (less what is not known) and none builds its prefix by hand. In io, the lowest layer, so
 * that every layer can use it; {@code format.ParquetCorruptionException} is built from one.
 *
 * <p>Immutable: {@link #inRowGroup}, {@link #column} and {@link #page} return narrower copies.
 */
public final class ErrorContext {
  private final String file;
  private final int rowGroup; // negative: not known
  private final String column; // dotted path; null: not known
  private final long pageOffset; // negative: not known

  private ErrorContext(String file, int rowGroup, String column, long pageOffset) {
    this.file = file;
    this.rowGroup = rowGroup;
    this.column = column;
    this.pageOffset = pageOffset;
  }

  /** The whole file. */
  public static ErrorContext of(String file) {
    return new ErrorContext(file, -1, null, -1);
  }

  public ErrorContext inRowGroup(int index) {
    return new ErrorContext(file, index, column, pageOffset);
  }

  /** @param dottedPath the column's path, "a.b" */
  public ErrorContext column(String dottedPath) {
    return new ErrorContext(file, rowGroup, dottedPath, pageOffset);
  }

  /** @param offset the page's file offset (its header's first byte) */
  public ErrorContext page(long offset) {
    return new ErrorContext(file, rowGroup, column, offset);
  }

  public String file() {
    return file;
  }

  /** The place within the file: "row group 3 column a.b, page at offset 4"; empty when only the file is known. */
  public String where() {
    StringBuilder b = new StringBuilder();
    if (rowGroup >= 0) {
      b.append("row group ").append(rowGroup);
    }
    if (column != null) {
      b.append(b.isEmpty() ? "" : " ").append("column ").append(column);
    }
    if (pageOffset >= 0) {
      b.append(b.isEmpty() ? "" : ", ").append("page at offset ").append(pageOffset);
    }
    return b.toString();
  }

  /** "[file] row group 3 column a.b, page at offset 4: what", or "[file] what" when only the file is known. */
  public String message(String what) {
    return render(what);
  }

  /**
   * {@code cause}'s message for appending to a message; a JDK exception's (a check the code that
   * threw it lacks) keeps its class name, so the gap can be found.
   */
  public static String causeDetail(Throwable cause) {
    String name = cause.getClass().getName();
    return (name.startsWith("java.") ? cause.getClass().getSimpleName() + ": " : "") + cause.getMessage();
  }

  public IOException io(String what) {
    return new IOException(message(what));
  }

  public IOException io(String what, Throwable cause) {
    return new IOException(message(what), cause);
  }

  public EOFException eof(String what) {
    return new EOFException(message(what));
  }

  public InterruptedIOException interrupted(String what) {
    return new InterruptedIOException(message(what));
  }

  public UnsupportedOperationException unsupported(String what) {
    return new UnsupportedOperationException(message(what));
  }

  public UnsupportedOperationException unsupported(String what, Throwable cause) {
    return new UnsupportedOperationException(message(what), cause);
  }

  public IllegalArgumentException illegalArgument(String what) {
    return new IllegalArgumentException(message(what));
  }

  public IllegalArgumentException illegalArgument(String what, Throwable cause) {
    return new IllegalArgumentException(message(what), cause);
  }

  public IllegalStateException illegalState(String what) {
    return new IllegalStateException(message(what));
  }

  /** "[file] row group 3 column a.b, page at offset 4" */
  @Override
  public String toString() {
    return render(null);
  }

  private String render(String what) {
    String where = where();
    String tail = what == null ? where : where.isEmpty() ? what : where + ": " + what;
    return "[" + file + "]" + (tail.isEmpty() ? "" : " " + tail);
  }
}
