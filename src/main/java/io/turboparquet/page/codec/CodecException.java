package io.turboparquet.page.codec;

import java.io.IOException;

/** A decompression failure whose message already starts with the codec name. */
final class CodecException extends IOException {
  CodecException(String message) {
    super(message);
  }

  CodecException(String message, Throwable cause) {
    super(message, cause);
  }
}
