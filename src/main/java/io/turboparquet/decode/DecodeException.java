package io.turboparquet.decode;

/** Encoded bytes contradict their encoding; the column reader adds where it happened. */
public class DecodeException extends RuntimeException {
  public DecodeException(String message) {
    super(message);
  }

  public DecodeException(String message, Throwable cause) {
    super(message, cause);
  }
}
