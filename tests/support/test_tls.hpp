// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// A test PKI made at run time with the OpenSSL 3 C API (EC P-256, SHA-256), so
// that no key is ever committed and no openssl command is needed: a CA that
// signs server certificates for the names a test asks, PEM strings ready for
// asio::ssl::context, and the TLS contexts a test server and client use.
#pragma once

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <boost/asio/ssl/context.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace test_tls {

struct pem_pair
{
    std::string certificate;
    std::string private_key;
};

namespace detail {

struct key_free
{
    void operator()(EVP_PKEY* p) const noexcept { EVP_PKEY_free(p); }
};
struct x509_free
{
    void operator()(X509* p) const noexcept { X509_free(p); }
};
struct bio_free
{
    void operator()(BIO* p) const noexcept { BIO_free(p); }
};
using key_ptr = std::unique_ptr<EVP_PKEY, key_free>;
using x509_ptr = std::unique_ptr<X509, x509_free>;
using bio_ptr = std::unique_ptr<BIO, bio_free>;

inline void check(bool ok, char const* what)
{
    if(!ok)
        throw std::runtime_error(std::string("test_tls: ") + what + " failed");
}

inline void add_extension(X509* cert, X509* issuer, int nid, char const* value)
{
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
    check(ext != nullptr, "X509V3_EXT_conf_nid");
    bool const ok = X509_add_ext(cert, ext, -1) == 1;
    X509_EXTENSION_free(ext);
    check(ok, "X509_add_ext");
}

inline x509_ptr make_certificate(EVP_PKEY* key, std::string const& common_name, long serial)
{
    x509_ptr cert(X509_new());
    check(cert != nullptr, "X509_new");
    check(X509_set_version(cert.get(), 2) == 1, "X509_set_version"); // v3
    check(ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial) == 1, "serial");
    check(X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600) != nullptr, "notBefore");
    check(X509_gmtime_adj(X509_getm_notAfter(cert.get()), 24 * 3600) != nullptr, "notAfter");
    check(X509_set_pubkey(cert.get(), key) == 1, "X509_set_pubkey");
    X509_NAME* name = X509_get_subject_name(cert.get());
    check(X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
              reinterpret_cast<unsigned char const*>(common_name.c_str()), -1, -1, 0) == 1,
        "subject");
    return cert;
}

inline std::string to_pem(X509* cert)
{
    bio_ptr bio(BIO_new(BIO_s_mem()));
    check(bio && PEM_write_bio_X509(bio.get(), cert) == 1, "PEM_write_bio_X509");
    char* data = nullptr;
    long const n = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(n));
}

inline std::string to_pem(EVP_PKEY* key)
{
    bio_ptr bio(BIO_new(BIO_s_mem()));
    check(bio && PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) == 1,
        "PEM_write_bio_PrivateKey");
    char* data = nullptr;
    long const n = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(n));
}

} // namespace detail

/// A self-signed CA that signs server certificates.
class authority
{
public:
    explicit authority(std::string const& name = "agentio test CA") : key_(EVP_EC_gen("P-256"))
    {
        detail::check(key_ != nullptr, "EVP_EC_gen");
        cert_ = detail::make_certificate(key_.get(), name, 1);
        X509_set_issuer_name(cert_.get(), X509_get_subject_name(cert_.get()));
        detail::add_extension(cert_.get(), cert_.get(), NID_basic_constraints, "critical,CA:TRUE");
        detail::add_extension(cert_.get(), cert_.get(), NID_key_usage, "critical,keyCertSign,cRLSign");
        detail::add_extension(cert_.get(), cert_.get(), NID_subject_key_identifier, "hash");
        detail::check(X509_sign(cert_.get(), key_.get(), EVP_sha256()) > 0, "X509_sign (CA)");
    }

    /// The CA certificate, to trust on the client side.
    std::string certificate_pem() const { return detail::to_pem(cert_.get()); }

    /** A server certificate for the given subject alternative names, e.g.
        `{"DNS:localhost", "IP:127.0.0.1"}`; chain = leaf only.
    */
    pem_pair issue(std::vector<std::string> const& alt_names, std::string const& common_name = "agentio test server")
    {
        detail::key_ptr key(EVP_EC_gen("P-256"));
        detail::check(key != nullptr, "EVP_EC_gen");
        auto cert = detail::make_certificate(key.get(), common_name, ++serial_);
        X509_set_issuer_name(cert.get(), X509_get_subject_name(cert_.get()));
        std::string san;
        for(auto const& n : alt_names)
            san += (san.empty() ? "" : ",") + n;
        detail::add_extension(cert.get(), cert_.get(), NID_basic_constraints, "critical,CA:FALSE");
        detail::add_extension(cert.get(), cert_.get(), NID_key_usage, "critical,digitalSignature");
        detail::add_extension(cert.get(), cert_.get(), NID_ext_key_usage, "serverAuth");
        detail::add_extension(cert.get(), cert_.get(), NID_subject_alt_name, san.c_str());
        detail::add_extension(cert.get(), cert_.get(), NID_authority_key_identifier, "keyid");
        detail::check(X509_sign(cert.get(), key_.get(), EVP_sha256()) > 0, "X509_sign (server)");
        return {detail::to_pem(cert.get()), detail::to_pem(key.get())};
    }

private:
    detail::key_ptr key_;
    detail::x509_ptr cert_;
    long serial_ = 1;
};

/// A CA and one server certificate it signed, as a server test needs them.
struct pki
{
    std::string ca_cert;     // PEM
    std::string server_cert; // PEM, signed by the CA
    std::string server_key;  // PEM (PKCS#8)
};

/// A fresh CA and a server certificate for 127.0.0.1 and localhost.
inline pki make_pki()
{
    authority ca;
    auto const server = ca.issue({"DNS:localhost", "IP:127.0.0.1"}, "127.0.0.1");
    return {ca.certificate_pem(), server.certificate, server.private_key};
}

/// A server context with the PKI's certificate and key.
inline std::shared_ptr<boost::asio::ssl::context> server_context(pki const& p)
{
    namespace ssl = boost::asio::ssl;
    auto ctx = std::make_shared<ssl::context>(ssl::context::tls_server);
    ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3);
    ctx->use_certificate_chain(boost::asio::buffer(p.server_cert));
    ctx->use_private_key(boost::asio::buffer(p.server_key), ssl::context::pem);
    return ctx;
}

/// A client context that verifies peers and trusts `ca_pem` alone (none when empty).
inline std::shared_ptr<boost::asio::ssl::context> client_context(std::string const& ca_pem)
{
    namespace ssl = boost::asio::ssl;
    auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
    ctx->set_verify_mode(ssl::verify_peer);
    if(!ca_pem.empty())
        ctx->add_certificate_authority(boost::asio::buffer(ca_pem));
    return ctx;
}

/// Writes `text` to `path`.
inline void write_file(std::filesystem::path const& path, std::string const& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

} // namespace test_tls
