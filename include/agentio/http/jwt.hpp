//
// agentio/http/jwt.hpp
// ~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// JSON Web Tokens (RFC 7519) in JWS compact form (RFC 7515): who is calling,
// by `Authorization: Bearer <JWT>`. A verifier holds one key, and the key
// decides the algorithm (HS256, RS256 or ES256, RFC 7518 §3): a token that
// names another one is refused before any cryptography, so an RSA public key
// can never be used as an HMAC secret, and `none` is never accepted. All the
// cryptography is OpenSSL's.
//
//   auto v = http::jwt::verifier::from_public_key_pem(pem, {.issuer = "https://id.example"}).value();
//   auto token = http::jwt::bearer_token(req[beast::http::field::authorization]);
//   auto claims = v.verify(token.value_or(""));  // claims->subject: the user; else claims.error()
//

#ifndef AGENTIO_HTTP_JWT_HPP
#define AGENTIO_HTTP_JWT_HPP

#include <agentio/config.hpp>

#include <boost/assert/source_location.hpp>
#include <boost/json/object.hpp>
#include <boost/system/error_code.hpp>
#include <boost/system/result.hpp>

#include <openssl/types.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace agentio::http::jwt {

namespace json = boost::json;
namespace system = boost::system;

/// Why a token, or a key, was refused.
enum class errc
{
    /// Not three base64url segments of a JSON object header and payload, or a
    /// registered claim of the wrong type.
    malformed = 1,

    /// Longer than `verify_options::max_token_bytes`.
    too_large,

    /// The header names an algorithm this library does not verify (`none`
    /// among them), or asks for an extension (`crit`); or a key of a kind
    /// it does not use.
    unsupported_algorithm,

    /// The header names another algorithm than the verifier's key.
    algorithm_mismatch,

    /// The signature does not verify with the verifier's key.
    bad_signature,

    /// Past its `exp`, leeway included.
    expired,

    /// Before its `nbf`, leeway included.
    not_yet_valid,

    /// No `exp`, and the verifier requires one.
    missing_expiry,

    /// Its `iss` is not the verifier's issuer.
    wrong_issuer,

    /// Its `aud` does not name the verifier's audience.
    wrong_audience,

    /// No `sub`, or not a non-empty string.
    missing_subject,

    /// A key that cannot be read or used: not PEM, too short, a curve
    /// other than P-256, or a failure of the cryptography library.
    bad_key
};

/** The error category of @ref errc.

    @return The category object, named "agentio.http.jwt".
*/
AGENTIO_DECL system::error_category const& error_category() noexcept;

/** Makes an error code of @ref errc (found by ADL, so that
    `err.code == jwt::errc::expired` works).

    @param e The error.
    @return `{e, error_category()}`.
*/
inline system::error_code make_error_code(errc e) noexcept
{
    return {static_cast<int>(e), error_category()};
}

/** What went wrong: a code to branch on and a message for logs.

    The message never quotes the token, the key or a claim's text (they
    are the caller's or an attacker's); it gives the numbers that decided
    a time check ("expired at 1300819380, now 1300819441, leeway 60 s").
*/
struct error
{
    /// An @ref errc.
    system::error_code code = {};
    /// What happened, in words.
    std::string message = {};
};

/// The outcome of an operation that can fail.
template<class T>
using result = system::result<T, error>;

/** Throws a `boost::system::system_error` carrying the message (what
    `result::value()` does on error).

    @param e The error.
    @param loc Where `value()` was called.
*/
[[noreturn]] AGENTIO_DECL void throw_exception_from_error(error const& e, boost::source_location const& loc);

/// The signature algorithms supported (RFC 7518 §3.1 names).
enum class algorithm
{
    /// HMAC with SHA-256, with a shared secret.
    hs256,
    /// RSASSA-PKCS1-v1_5 with SHA-256, with an RSA key of 2048 bits or more.
    rs256,
    /// ECDSA on P-256 with SHA-256; the signature is `r || s`, 64 bytes.
    es256
};

/** The JOSE name of an algorithm.

    @param a The algorithm.
    @return `"HS256"`, `"RS256"` or `"ES256"`.
*/
AGENTIO_DECL std::string_view to_string(algorithm a) noexcept;

/// What a @ref verifier requires of a token besides its signature.
struct verify_options
{
    /// If set, `iss` must equal it.
    std::optional<std::string> issuer = {};

    /** If set, `aud` (a string or an array of strings) must contain it.
        If not set, a token that has an `aud` is refused: it is meant for
        someone in particular, and the verifier does not know who it is
        (RFC 7519 §4.1.3). */
    std::optional<std::string> audience = {};

    /// Clock skew allowed on `exp` and `nbf`.
    std::chrono::seconds leeway{60};

    /// Whether a token without `exp` is refused (it would never expire).
    bool require_expiry = true;

    /// Longer tokens are refused before any decoding.
    std::size_t max_token_bytes = 8192;
};

/// What a verified token says.
struct claims
{
    /// `sub`: who the token is about (the user).
    std::string subject = {};
    /// The whole payload, registered and private claims alike.
    json::object payload = {};
};

/** Verifies compact JWTs with one key, under fixed @ref verify_options.

    A token is accepted when all of these hold:
    @li it is at most `max_token_bytes` long and made of exactly three
        segments of unpadded base64url (RFC 7515 §7.1);
    @li its header is a JSON object whose `alg` is this verifier's
        algorithm, without `crit`, and whose `typ`, if any, is `JWT`
        (or `application/jwt`), in any case;
    @li its signature verifies (HMACs compared in constant time);
    @li its payload is a JSON object; `exp` and `nbf`, if present, are
        numbers (NumericDate, integer or fractional), and now is before
        `exp + leeway` and not before `nbf - leeway`; `exp` is present if
        required; `iss` and `aud` match the options; `sub` is a non-empty
        string. `iat` is not checked.

    A verifier is cheap to copy (the key is shared) and may be used from
    several threads at once.

    @code
    auto v = jwt::verifier::hs256(secret, {.issuer = "portfolio", .audience = "api"});
    if(!v)
        log(v.error().message);
    auto c = v->verify(token);
    if(!c)
        return unauthorized(c.error().message);
    auto const& user = c->subject;
    @endcode
*/
class verifier
{
public:
    /** A verifier of HS256 tokens.

        @param secret The shared secret: at least 32 bytes (RFC 7518 §3.2
        asks for a key as long as the hash).
        @param options What the claims must say.
        @return The verifier, or `errc::bad_key`.
    */
    static result<verifier> hs256(std::string_view secret, verify_options options = {});

    /** A verifier of RS256 or ES256 tokens, as the key says.

        @param pem A public key in PEM: `-----BEGIN PUBLIC KEY-----`
        (SubjectPublicKeyInfo) holding an RSA key of at least 2048 bits or an
        EC key on P-256; or `-----BEGIN RSA PUBLIC KEY-----` (PKCS #1).
        @param options What the claims must say.
        @return The verifier; `errc::bad_key` if no key can be read or it is
        too short or on another curve, `errc::unsupported_algorithm` for
        another kind of key (Ed25519, RSA-PSS, …).
    */
    static result<verifier> from_public_key_pem(std::string_view pem, verify_options options = {});

    /** Verifies a compact token.

        @param token The token (`header.payload.signature`).
        @param now The current time; given in tests.
        @return Its claims, or why it was refused.
    */
    result<claims> verify(std::string_view token,
        std::chrono::system_clock::time_point now = std::chrono::system_clock::now()) const;

    /// The algorithm of the key: the only one accepted.
    algorithm alg() const noexcept { return alg_; }

    /// What the claims must say.
    verify_options const& options() const noexcept { return options_; }

private:
    verifier(algorithm a, std::string secret, std::shared_ptr<EVP_PKEY> key, verify_options options)
        : alg_(a)
        , secret_(std::move(secret))
        , key_(std::move(key))
        , options_(std::move(options))
    {
    }

    algorithm alg_;
    std::string secret_;            // HS256
    std::shared_ptr<EVP_PKEY> key_; // RS256, ES256
    verify_options options_;
};

class signing_key;

/** Signs claims into a compact token, with the header
    `{"alg":"<key's algorithm>","typ":"JWT"}`.

    Nothing is added to the claims: set `sub`, `exp` and the others yourself.

    @param claims The payload.
    @param key The key.
    @return The token, or `errc::bad_key` if the cryptography library fails.
*/
AGENTIO_DECL result<std::string> sign(json::object const& claims, signing_key const& key);

/** A key that signs tokens: a shared secret (HS256) or a private key
    (RS256 or ES256, as the key says). */
class signing_key
{
public:
    /** An HS256 key.

        @param secret The shared secret: at least 32 bytes.
        @return The key, or `errc::bad_key`.
    */
    static result<signing_key> hs256(std::string_view secret);

    /** An RS256 or ES256 key, as the key says.

        @param pem An unencrypted private key in PEM: `PRIVATE KEY`
        (PKCS #8), `RSA PRIVATE KEY` or `EC PRIVATE KEY`; RSA of at least
        2048 bits or EC on P-256.
        @return The key; `errc::bad_key` or `errc::unsupported_algorithm`
        as for @ref verifier::from_public_key_pem.
    */
    static result<signing_key> from_private_key_pem(std::string_view pem);

    /// The algorithm it signs with.
    algorithm alg() const noexcept { return alg_; }

private:
    friend result<std::string> sign(json::object const& claims, signing_key const& key);

    signing_key(algorithm a, std::string secret, std::shared_ptr<EVP_PKEY> key)
        : alg_(a)
        , secret_(std::move(secret))
        , key_(std::move(key))
    {
    }

    algorithm alg_;
    std::string secret_;
    std::shared_ptr<EVP_PKEY> key_;
};

/** The token of an `Authorization` header value `Bearer <token>`
    (RFC 6750 §2.1).

    `Bearer` may be in any case, followed by one space or more, then the
    token (RFC 6750 `b64token` characters) and nothing else.

    @param authorization The header's value.
    @return The token, a view into `authorization`; nothing if the value is
    not of that form.
*/
AGENTIO_DECL std::optional<std::string_view> bearer_token(std::string_view authorization) noexcept;

} // namespace agentio::http::jwt

namespace boost::system {
template<>
struct is_error_code_enum<agentio::http::jwt::errc> : std::true_type
{
};
} // namespace boost::system

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/http/impl/jwt.ipp>
#endif

#endif
