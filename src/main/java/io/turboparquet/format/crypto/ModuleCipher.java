package io.turboparquet.format.crypto;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES with one key over module buffers (Encryption.md 5.1), through the JDK's provider. A module
 * here is what follows its 4-byte length: nonce, ciphertext and, for GCM, the tag. Callers check
 * the length against the bytes that exist before they get here.
 *
 * <p>{@code Cipher.getInstance} costs a provider lookup, so each thread keeps one GCM and one CTR
 * cipher and re-initialises it per module (a module has its own nonce anyway), and page modules
 * pass through the thread's two reused heap arrays ({@link Scratch}). Instances are safe
 * to share between threads; the key never leaves this class and is in no message.
 */
final class ModuleCipher {
  static final int LENGTH = 4;
  static final int NONCE = 12;
  static final int TAG = 16;
  private static final int TAG_BITS = TAG * 8;

  private static final ThreadLocal<Cipher> GCM = ThreadLocal.withInitial(() -> cipher("AES/GCM/NoPadding"));
  private static final ThreadLocal<Cipher> CTR = ThreadLocal.withInitial(() -> cipher("AES/CTR/NoPadding"));

  private final SecretKeySpec key;

  /** @throws IllegalArgumentException for a key that is not 16, 24 or 32 bytes (its length is named, not its bytes) */
  ModuleCipher(byte[] key) {
    if (key == null || key.length != 16 && key.length != 24 && key.length != 32) {
      throw new IllegalArgumentException("an AES key has 16, 24 or 32 bytes, this one "
          + (key == null ? "none" : key.length));
    }
    this.key = new SecretKeySpec(key, "AES");
  }

  private static Cipher cipher(String transformation) {
    try {
      return Cipher.getInstance(transformation);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK offers no " + transformation, e);
    }
  }

  /** The plaintext of the GCM module {@code buf[off, off + len)}, authenticated with {@code aad}. */
  byte[] gcm(byte[] buf, int off, int len, byte[] aad) throws GeneralSecurityException {
    Cipher c = GCM.get();
    c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, buf, off, NONCE));
    c.updateAAD(aad);
    return c.doFinal(buf, off + NONCE, len - NONCE);
  }

  /**
   * Decrypts the GCM module {@code in} (position to limit) into {@code out}; returns the plaintext's
   * length. Through heap arrays, whatever the buffers: JDK 17's GCM hashes direct buffers block by
   * block in Java, arrays with its CLMUL intrinsic (300-400 against 900-1,000 MB/s for 64 KiB modules
   * here, docs/benchmarks.md), which pays for the two bulk copies many times over.
   */
  int gcm(ByteBuffer in, ByteBuffer out, byte[] aad) throws GeneralSecurityException {
    int n = in.remaining();
    byte[] sealed = Scratch.SEALED.get().array(n);
    in.get(sealed, 0, n);
    byte[] plain = Scratch.PLAIN.get().array(n - NONCE - TAG);
    Cipher c = GCM.get();
    c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 0, NONCE));
    c.updateAAD(aad);
    int length = c.doFinal(sealed, NONCE, n - NONCE, plain, 0);
    out.put(plain, 0, length);
    return length;
  }

  /**
   * A thread's heap array for page modules, reused up to {@link #KEEP} bytes (most pages); a larger
   * module gets an array of its own, so no thread holds one page's worth of a rare huge page.
   */
  private static final class Scratch {
    static final int KEEP = 2 << 20;
    static final ThreadLocal<Scratch> SEALED = ThreadLocal.withInitial(Scratch::new);
    static final ThreadLocal<Scratch> PLAIN = ThreadLocal.withInitial(Scratch::new);
    private byte[] kept = new byte[0];

    byte[] array(int n) {
      if (n > KEEP) {
        return new byte[n];
      }
      if (kept.length < n) {
        kept = new byte[Math.min(KEEP, Math.max(n, 2 * kept.length))];
      }
      return kept;
    }
  }

  /** Decrypts the CTR module {@code in} (position to limit) into {@code out}; returns the plaintext's length. */
  int ctr(ByteBuffer in, ByteBuffer out) throws GeneralSecurityException {
    int n = in.remaining();
    byte[] sealed = Scratch.SEALED.get().array(n); // arrays, as for GCM: one path for both
    in.get(sealed, 0, n);
    byte[] iv = new byte[16]; // the nonce, then a 32-bit counter starting at 1 (Encryption.md 4.2.2)
    System.arraycopy(sealed, 0, iv, 0, NONCE);
    iv[15] = 1;
    byte[] plain = Scratch.PLAIN.get().array(n - NONCE);
    Cipher c = CTR.get();
    c.init(Cipher.DECRYPT_MODE, key, new IvParameterSpec(iv));
    int length = c.doFinal(sealed, NONCE, n - NONCE, plain, 0);
    out.put(plain, 0, length);
    return length;
  }

  /**
   * Whether {@code nonceAndTag} (12 + 16 bytes) signs {@code buf[off, off + len)} with {@code aad}: the
   * GCM encryption of the bytes under that nonce must end with that tag. A cipher of its own, not
   * the thread's: the JDK refuses to encrypt twice with one nonce on one instance.
   */
  boolean signs(byte[] nonceAndTag, byte[] buf, int off, int len, byte[] aad) throws GeneralSecurityException {
    Cipher c = cipher("AES/GCM/NoPadding");
    c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonceAndTag, 0, NONCE));
    c.updateAAD(aad);
    byte[] sealed = c.doFinal(buf, off, len);
    return MessageDigest.isEqual(java.util.Arrays.copyOfRange(sealed, len, len + TAG),
        java.util.Arrays.copyOfRange(nonceAndTag, NONCE, NONCE + TAG));
  }
}
