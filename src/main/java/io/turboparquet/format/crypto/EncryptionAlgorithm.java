package io.turboparquet.format.crypto;

/**
 * The Thrift union EncryptionAlgorithm (AesGcmV1 or AesGcmCtrV1, which have the same fields): from
 * FileCryptoMetaData in files with an encrypted footer, from FileMetaData in files with a plaintext one.
 *
 * @param ctrPages AES_GCM_CTR_V1: pages are AES-CTR, every other module AES-GCM
 * @param aadPrefix the AAD prefix the writer stored, or null
 * @param aadFileUnique the file's part of every AAD suffix (empty when absent)
 * @param supplyAadPrefix the writer used an AAD prefix without storing it: the reader must supply it
 */
public record EncryptionAlgorithm(boolean ctrPages, byte[] aadPrefix, byte[] aadFileUnique, boolean supplyAadPrefix) {
  public EncryptionAlgorithm {
    aadFileUnique = aadFileUnique == null ? new byte[0] : aadFileUnique;
  }

  public String name() {
    return ctrPages ? "AES_GCM_CTR_V1" : "AES_GCM_V1";
  }
}
