package dev.toolgate.operator.webhook;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * X.509 for the webhook and the state service, with Bouncy Castle: EC P-256 keys, a CA, server
 * certificates for DNS names, and PEM both ways.
 */
public final class Certificates {

  private static final SecureRandom RANDOM = new SecureRandom();

  private Certificates() {}

  /** A fresh EC P-256 key pair. */
  public static KeyPair keyPair() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("EC P-256 is part of every JRE", e);
    }
  }

  /** A self-signed CA valid from a little before {@code now} for {@code validity}. */
  public static WebhookTls.Authority authority(Instant now, Duration validity) {
    KeyPair keys = keyPair();
    X500Name name = new X500Name("CN=toolgate-webhook-ca " + new BigInteger(32, RANDOM));
    return new WebhookTls.Authority(
        sign(name, keys, name, keys, now, validity, true, List.of()), keys);
  }

  /** A server certificate for these DNS names (or IP addresses), issued by {@code ca}. */
  public static X509Certificate server(
      WebhookTls.Authority ca, List<String> names, KeyPair keys, Instant now, Duration validity) {
    X500Name issuer = X500Name.getInstance(ca.certificate().getSubjectX500Principal().getEncoded());
    return sign(
        issuer, ca.keys(), new X500Name("CN=" + names.get(0)), keys, now, validity, false, names);
  }

  /** Whether {@code certificate} carries a valid signature of {@code ca}'s key. */
  public static boolean signedBy(X509Certificate certificate, X509Certificate ca) {
    try {
      certificate.verify(ca.getPublicKey());
      return true;
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  static X509Certificate sign(
      X500Name issuer,
      KeyPair issuerKeys,
      X500Name subject,
      KeyPair subjectKeys,
      Instant now,
      Duration validity,
      boolean ca,
      List<String> names) {
    try {
      X509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              issuer,
              new BigInteger(64, RANDOM),
              Date.from(now.minus(Duration.ofMinutes(5))),
              Date.from(now.plus(validity)),
              subject,
              subjectKeys.getPublic());
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
      if (ca) {
        builder.addExtension(
            Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      } else {
        builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
        GeneralName[] sans =
            names.stream()
                .map(
                    n ->
                        n.matches("[0-9.]+")
                            ? new GeneralName(GeneralName.iPAddress, n)
                            : new GeneralName(GeneralName.dNSName, n))
                .toArray(GeneralName[]::new);
        builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(sans));
      }
      ContentSigner signer =
          new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate());
      return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
    } catch (IOException | OperatorCreationException | CertificateException e) {
      throw new IllegalStateException("cannot issue a certificate: " + e.getMessage(), e);
    }
  }

  /** A certificate or a key in PEM (a private key as PKCS#8). */
  public static String pem(Object object) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(
          object instanceof PrivateKey key ? new JcaPKCS8Generator(key, null).generate() : object);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return out.toString();
  }

  /** Every certificate of a PEM text, in order. */
  public static List<X509Certificate> certificates(String pem) throws IOException {
    List<X509Certificate> out = new ArrayList<>();
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
        if (!(o instanceof X509CertificateHolder holder)) {
          throw new IOException("not a certificate: " + o.getClass().getSimpleName());
        }
        out.add(new JcaX509CertificateConverter().getCertificate(holder));
      }
    } catch (CertificateException e) {
      throw new IOException("not a certificate: " + e.getMessage(), e);
    }
    return out;
  }

  /**
   * The key pair of a PEM private key (PKCS#8 or a PEM key pair), with the certificate's public
   * key.
   */
  public static KeyPair keyPair(String pem, X509Certificate certificate) throws IOException {
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      Object key = parser.readObject();
      JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
      PrivateKey privateKey;
      if (key instanceof PEMKeyPair pair) {
        privateKey = converter.getPrivateKey(pair.getPrivateKeyInfo());
      } else if (key instanceof PrivateKeyInfo info) {
        privateKey = converter.getPrivateKey(info);
      } else {
        throw new IOException("not a private key");
      }
      return new KeyPair(certificate.getPublicKey(), privateKey);
    }
  }
}
