// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// A test PKI made at run time with OpenSSL's C API, so that no key is ever
// committed: a CA, and a server certificate it signs for 127.0.0.1 and
// localhost. Plus the TLS contexts a test server and client use.
#pragma once

#include <boost/asio/ssl/context.hpp>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

namespace test_tls {

struct pki
{
    std::string ca_cert;     // PEM
    std::string server_cert; // PEM, signed by the CA
    std::string server_key;  // PEM (PKCS#8)
};

namespace detail {

struct key_deleter
{
    void operator()(EVP_PKEY* k) const noexcept { EVP_PKEY_free(k); }
};
struct cert_deleter
{
    void operator()(X509* c) const noexcept { X509_free(c); }
};
struct bio_deleter
{
    void operator()(BIO* b) const noexcept { BIO_free(b); }
};
using key_ptr = std::unique_ptr<EVP_PKEY, key_deleter>;
using cert_ptr = std::unique_ptr<X509, cert_deleter>;
using bio_ptr = std::unique_ptr<BIO, bio_deleter>;

inline void check(bool ok, char const* what)
{
    if(!ok)
        throw std::runtime_error(std::string("test PKI: ") + what);
}

inline key_ptr new_key()
{
    key_ptr k(EVP_EC_gen("P-256"));
    check(k != nullptr, "EVP_EC_gen");
    return k;
}

inline void add_extension(X509* cert, X509* issuer, int nid, char const* value)
{
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
    check(ext != nullptr, "X509V3_EXT_conf_nid");
    X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
}

// A certificate for `key` named `cn`, signed by `issuer_key` (self-signed when `issuer` is null).
inline cert_ptr new_cert(EVP_PKEY* key, char const* cn, long serial, X509* issuer, EVP_PKEY* issuer_key, bool ca)
{
    cert_ptr c(X509_new());
    check(c != nullptr, "X509_new");
    X509_set_version(c.get(), 2);
    ASN1_INTEGER_set(X509_get_serialNumber(c.get()), serial);
    X509_gmtime_adj(X509_getm_notBefore(c.get()), -3600);
    X509_gmtime_adj(X509_getm_notAfter(c.get()), 7 * 24 * 3600);
    X509_set_pubkey(c.get(), key);
    X509_NAME* name = X509_get_subject_name(c.get());
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<unsigned char const*>(cn), -1, -1, 0);
    X509* const signer = issuer ? issuer : c.get();
    X509_set_issuer_name(c.get(), X509_get_subject_name(signer));
    if(ca)
    {
        add_extension(c.get(), signer, NID_basic_constraints, "critical,CA:TRUE");
        add_extension(c.get(), signer, NID_key_usage, "critical,keyCertSign,cRLSign");
    }
    else
    {
        add_extension(c.get(), signer, NID_basic_constraints, "critical,CA:FALSE");
        add_extension(c.get(), signer, NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost");
        add_extension(c.get(), signer, NID_ext_key_usage, "serverAuth");
    }
    add_extension(c.get(), signer, NID_subject_key_identifier, "hash");
    check(X509_sign(c.get(), issuer_key ? issuer_key : key, EVP_sha256()) > 0, "X509_sign");
    return c;
}

inline std::string to_pem(X509* c)
{
    bio_ptr b(BIO_new(BIO_s_mem()));
    check(PEM_write_bio_X509(b.get(), c) == 1, "PEM_write_bio_X509");
    char* data = nullptr;
    long const n = BIO_get_mem_data(b.get(), &data);
    return std::string(data, static_cast<std::size_t>(n));
}

inline std::string to_pem(EVP_PKEY* k)
{
    bio_ptr b(BIO_new(BIO_s_mem()));
    check(PEM_write_bio_PrivateKey(b.get(), k, nullptr, nullptr, 0, nullptr, nullptr) == 1, "PEM_write_bio_PrivateKey");
    char* data = nullptr;
    long const n = BIO_get_mem_data(b.get(), &data);
    return std::string(data, static_cast<std::size_t>(n));
}

} // namespace detail

/// A fresh CA and a server certificate for 127.0.0.1 and localhost.
inline pki make_pki()
{
    auto const ca_key = detail::new_key();
    auto const ca = detail::new_cert(ca_key.get(), "agentio test CA", 1, nullptr, nullptr, true);
    auto const key = detail::new_key();
    auto const cert = detail::new_cert(key.get(), "127.0.0.1", 2, ca.get(), ca_key.get(), false);
    return {detail::to_pem(ca.get()), detail::to_pem(cert.get()), detail::to_pem(key.get())};
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
