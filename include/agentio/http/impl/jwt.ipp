//
// agentio/http/impl/jwt.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_HTTP_IMPL_JWT_IPP
#define AGENTIO_HTTP_IMPL_JWT_IPP

#include <agentio/detail/ascii.hpp>
#include <agentio/detail/base64.hpp>
#include <agentio/http/jwt.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <boost/system/system_error.hpp>
#include <boost/throw_exception.hpp>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/decoder.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <memory>
#include <utility>

namespace agentio::http::jwt {

namespace detail {

class jwt_category final : public system::error_category
{
public:
    char const* name() const noexcept override { return "agentio.http.jwt"; }

    std::string message(int ev) const override
    {
        switch(static_cast<errc>(ev))
        {
        case errc::malformed: return "malformed token";
        case errc::too_large: return "token too large";
        case errc::unsupported_algorithm: return "unsupported algorithm";
        case errc::algorithm_mismatch: return "token algorithm differs from the key's";
        case errc::bad_signature: return "bad signature";
        case errc::expired: return "token expired";
        case errc::not_yet_valid: return "token not yet valid";
        case errc::missing_expiry: return "token has no expiry";
        case errc::wrong_issuer: return "wrong issuer";
        case errc::wrong_audience: return "wrong audience";
        case errc::missing_subject: return "token has no subject";
        case errc::bad_key: return "unusable key";
        }
        return "unknown agentio.http.jwt error";
    }
};

// Every failure leaves OpenSSL's error queue empty: a later, unrelated TLS
// call on this thread must not find our errors there.
AGENTIO_DECL error fail(errc e, std::string message)
{
    ERR_clear_error();
    return {make_error_code(e), std::move(message)};
}

// OpenSSL's reason for the last failure, for a message.
AGENTIO_DECL std::string openssl_reason()
{
    unsigned long const e = ERR_peek_last_error();
    if(e == 0)
        return "no reason given";
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    return buf;
}

// Keys are never encrypted here: a passphrase prompt on the terminal (what a
// null callback does) would hang a server.
AGENTIO_DECL int no_passphrase(char*, int, int, void*)
{
    return -1;
}

AGENTIO_DECL std::shared_ptr<EVP_PKEY> own(EVP_PKEY* key)
{
    return std::shared_ptr<EVP_PKEY>(key, EVP_PKEY_free);
}

// The algorithm a key is for, or why it is for none.
AGENTIO_DECL result<algorithm> algorithm_of(EVP_PKEY* key)
{
    if(EVP_PKEY_is_a(key, "RSA"))
    {
        int const bits = EVP_PKEY_get_bits(key);
        if(bits < 2048)
            return fail(errc::bad_key, "an RSA key of " + std::to_string(bits) + " bits; RS256 needs 2048 or more");
        return algorithm::rs256;
    }
    if(EVP_PKEY_is_a(key, "EC"))
    {
        char group[80] = {};
        std::size_t length = 0;
        if(EVP_PKEY_get_group_name(key, group, sizeof group, &length) != 1)
            return fail(errc::bad_key, "an EC key without a named curve; ES256 needs P-256");
        std::string_view const name(group, length);
        if(name != "prime256v1" && name != "P-256")
            return fail(errc::bad_key, "an EC key on " + std::string(name) + "; ES256 needs P-256");
        return algorithm::es256;
    }
    char const* type = EVP_PKEY_get0_type_name(key);
    return fail(errc::unsupported_algorithm,
        std::string("a key of type ") + (type ? type : "unknown") + "; only RSA and EC P-256 keys are used");
}

AGENTIO_DECL result<std::shared_ptr<EVP_PKEY>> read_pem(std::string_view pem, bool is_private)
{
    if(pem.size() > INT_MAX)
        return fail(errc::bad_key, "the PEM text is too long");
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), BIO_free);
    if(!bio)
        return fail(errc::bad_key, "BIO_new_mem_buf: " + openssl_reason());
    EVP_PKEY* key = nullptr;
    if(is_private)
        key = PEM_read_bio_PrivateKey(bio.get(), nullptr, no_passphrase, nullptr);
    else if(pem.find("-----BEGIN PUBLIC KEY-----") != std::string_view::npos)
        key = PEM_read_bio_PUBKEY(bio.get(), nullptr, no_passphrase, nullptr);
    else if(pem.find("-----BEGIN RSA PUBLIC KEY-----") != std::string_view::npos)
    {
        // PKCS #1: OpenSSL 3 reads it only through a decoder ("type-specific"
        // structure) or the deprecated RSA functions.
        std::unique_ptr<OSSL_DECODER_CTX, decltype(&OSSL_DECODER_CTX_free)> decoder(
            OSSL_DECODER_CTX_new_for_pkey(&key, "PEM", "type-specific", "RSA", EVP_PKEY_PUBLIC_KEY, nullptr, nullptr),
            OSSL_DECODER_CTX_free);
        auto const* data = reinterpret_cast<unsigned char const*>(pem.data());
        std::size_t size = pem.size();
        if(decoder && OSSL_DECODER_from_data(decoder.get(), &data, &size) != 1)
        {
            EVP_PKEY_free(key);
            key = nullptr;
        }
    }
    else
        return fail(errc::bad_key, "no -----BEGIN PUBLIC KEY----- or -----BEGIN RSA PUBLIC KEY----- in the PEM text");
    if(!key)
        return fail(errc::bad_key,
            std::string(is_private ? "no private key" : "no public key") + " could be read: " + openssl_reason());
    ERR_clear_error(); // what trying other PEM blocks may have left
    return own(key);
}

AGENTIO_DECL result<std::string> hs256_secret(std::string_view secret)
{
    if(secret.size() < 32)
        return fail(errc::bad_key,
            "an HS256 secret of " + std::to_string(secret.size()) + " bytes; at least 32 are needed (RFC 7518 §3.2)");
    return std::string(secret);
}

// A NumericDate for a message: "1300819380", "1300819380.5".
AGENTIO_DECL std::string date_text(double seconds)
{
    char buf[64];
    auto const r = std::to_chars(buf, buf + sizeof buf, seconds);
    return std::string(buf, r.ptr);
}

// The JSON object `text` holds, if it is one.
AGENTIO_DECL std::optional<json::object> parse_object(std::string_view text)
{
    system::error_code ec;
    json::value v = json::parse(text, ec);
    if(ec || !v.is_object())
        return std::nullopt;
    return std::move(v.as_object());
}

using md_ctx = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

// JOSE's r || s (RFC 7518 §3.4) as the DER ECDSA-Sig-Value OpenSSL verifies.
AGENTIO_DECL std::optional<std::string> ecdsa_der(std::string_view raw)
{
    auto const* p = reinterpret_cast<unsigned char const*>(raw.data());
    std::unique_ptr<ECDSA_SIG, decltype(&ECDSA_SIG_free)> sig(ECDSA_SIG_new(), ECDSA_SIG_free);
    BIGNUM* r = BN_bin2bn(p, 32, nullptr);
    BIGNUM* s = BN_bin2bn(p + 32, 32, nullptr);
    if(!sig || !r || !s || ECDSA_SIG_set0(sig.get(), r, s) != 1)
    {
        BN_free(r);
        BN_free(s);
        return std::nullopt;
    }
    int const n = i2d_ECDSA_SIG(sig.get(), nullptr);
    if(n <= 0)
        return std::nullopt;
    std::string der(static_cast<std::size_t>(n), '\0');
    auto* out = reinterpret_cast<unsigned char*>(der.data());
    if(i2d_ECDSA_SIG(sig.get(), &out) != n)
        return std::nullopt;
    return der;
}

// The DER ECDSA-Sig-Value OpenSSL signs as JOSE's r || s.
AGENTIO_DECL std::optional<std::string> ecdsa_raw(std::string_view der)
{
    auto const* p = reinterpret_cast<unsigned char const*>(der.data());
    std::unique_ptr<ECDSA_SIG, decltype(&ECDSA_SIG_free)> sig(d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der.size())),
        ECDSA_SIG_free);
    if(!sig)
        return std::nullopt;
    std::string raw(64, '\0');
    auto* out = reinterpret_cast<unsigned char*>(raw.data());
    if(BN_bn2binpad(ECDSA_SIG_get0_r(sig.get()), out, 32) != 32 ||
        BN_bn2binpad(ECDSA_SIG_get0_s(sig.get()), out + 32, 32) != 32)
        return std::nullopt;
    return raw;
}

AGENTIO_DECL std::optional<std::string> hmac_sha256(std::string_view secret, std::string_view input)
{
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if(!HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
           reinterpret_cast<unsigned char const*>(input.data()), input.size(), mac, &length))
        return std::nullopt;
    return std::string(reinterpret_cast<char const*>(mac), length);
}

// Whether `signature` signs `input` (the token's first two segments).
AGENTIO_DECL bool signature_verifies(algorithm alg, std::string const& secret, EVP_PKEY* key, std::string_view input,
    std::string_view signature)
{
    if(alg == algorithm::hs256)
    {
        auto const mac = hmac_sha256(secret, input);
        return mac && signature.size() == mac->size() && CRYPTO_memcmp(mac->data(), signature.data(), mac->size()) == 0;
    }
    std::string der;
    if(alg == algorithm::es256)
    {
        if(signature.size() != 64)
            return false;
        auto converted = ecdsa_der(signature);
        if(!converted)
            return false;
        der = std::move(*converted);
        signature = der;
    }
    md_ctx ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    return ctx && EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key) == 1 &&
        EVP_DigestVerify(ctx.get(), reinterpret_cast<unsigned char const*>(signature.data()), signature.size(),
            reinterpret_cast<unsigned char const*>(input.data()), input.size()) == 1;
}

AGENTIO_DECL result<std::string> make_signature(algorithm alg, std::string const& secret, EVP_PKEY* key,
    std::string_view input)
{
    if(alg == algorithm::hs256)
    {
        auto mac = hmac_sha256(secret, input);
        if(!mac)
            return fail(errc::bad_key, "HMAC: " + openssl_reason());
        return std::move(*mac);
    }
    md_ctx ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    auto const* data = reinterpret_cast<unsigned char const*>(input.data());
    std::size_t size = 0;
    if(!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key) != 1 ||
        EVP_DigestSign(ctx.get(), nullptr, &size, data, input.size()) != 1)
        return fail(errc::bad_key, "EVP_DigestSign: " + openssl_reason());
    std::string sig(size, '\0');
    if(EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(sig.data()), &size, data, input.size()) != 1)
        return fail(errc::bad_key, "EVP_DigestSign: " + openssl_reason());
    sig.resize(size);
    if(alg == algorithm::rs256)
        return sig;
    auto raw = ecdsa_raw(sig);
    if(!raw)
        return fail(errc::bad_key, "the ECDSA signature could not be converted to r || s");
    return std::move(*raw);
}

// The NumericDate claim `name` (RFC 7519 §2), if present; malformed if not a number.
AGENTIO_DECL result<std::optional<double>> numeric_date(json::object const& payload, std::string_view name)
{
    auto const* v = payload.if_contains(name);
    if(!v)
        return std::optional<double>();
    switch(v->kind())
    {
    case json::kind::int64: return std::optional<double>(static_cast<double>(v->get_int64()));
    case json::kind::uint64: return std::optional<double>(static_cast<double>(v->get_uint64()));
    case json::kind::double_: return std::optional<double>(v->get_double());
    default: break;
    }
    return fail(errc::malformed, "the claim \"" + std::string(name) + "\" is not a number");
}

// RFC 6750 §2.1 b64token characters, before any trailing '='.
constexpr bool is_b64token_char(char c) noexcept
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
        c == '_' || c == '~' || c == '+' || c == '/';
}

} // namespace detail

AGENTIO_DECL system::error_category const& error_category() noexcept
{
    static detail::jwt_category const category;
    return category;
}

AGENTIO_DECL void throw_exception_from_error(error const& e, boost::source_location const& loc)
{
    boost::throw_exception(system::system_error(e.code, e.message), loc);
}

AGENTIO_DECL std::string_view to_string(algorithm a) noexcept
{
    switch(a)
    {
    case algorithm::hs256: return "HS256";
    case algorithm::rs256: return "RS256";
    case algorithm::es256: return "ES256";
    }
    return "";
}

AGENTIO_DECL result<verifier> verifier::hs256(std::string_view secret, verify_options options)
{
    auto s = detail::hs256_secret(secret);
    if(!s)
        return s.error();
    return verifier(algorithm::hs256, std::move(*s), nullptr, std::move(options));
}

AGENTIO_DECL result<verifier> verifier::from_public_key_pem(std::string_view pem, verify_options options)
{
    auto key = detail::read_pem(pem, false);
    if(!key)
        return key.error();
    auto const alg = detail::algorithm_of(key->get());
    if(!alg)
        return alg.error();
    return verifier(*alg, {}, std::move(*key), std::move(options));
}

AGENTIO_DECL result<claims> verifier::verify(std::string_view token, std::chrono::system_clock::time_point now) const
{
    using detail::fail;

    // The cheap structural checks first: no decoding or cryptography for
    // what cannot be a token.
    if(token.size() > options_.max_token_bytes)
        return fail(errc::too_large,
            "the token is " + std::to_string(token.size()) + " bytes, more than the limit of " +
                std::to_string(options_.max_token_bytes));
    if(auto const dots = std::count(token.begin(), token.end(), '.'); dots != 2)
        return fail(errc::malformed,
            "the token has " + std::to_string(dots + 1) + (dots == 0 ? " segment" : " segments") + ", not 3");
    auto const dot1 = token.find('.');
    auto const dot2 = token.find('.', dot1 + 1);
    std::string_view const signed_part = token.substr(0, dot2);

    auto const header_json = agentio::detail::base64url_decode(token.substr(0, dot1));
    if(!header_json)
        return fail(errc::malformed, "the header is not unpadded base64url");
    auto const header = detail::parse_object(*header_json);
    if(!header)
        return fail(errc::malformed, "the header is not a JSON object");

    // The key decides the algorithm; the header may only agree with it.
    auto const* alg = header->if_contains("alg");
    if(!alg || !alg->is_string())
        return fail(errc::malformed, "the header has no \"alg\" string");
    std::string_view const alg_name = alg->get_string();
    if(alg_name != "HS256" && alg_name != "RS256" && alg_name != "ES256")
        return fail(errc::unsupported_algorithm, "the header's algorithm is none of HS256, RS256 and ES256");
    if(alg_name != to_string(alg_))
        return fail(errc::algorithm_mismatch,
            "the header says " + std::string(alg_name) + ", the key is for " + std::string(to_string(alg_)));
    if(header->contains("crit")) // RFC 7515 §4.1.11: extensions we do not know must be refused
        return fail(errc::unsupported_algorithm, "the header asks for extensions (\"crit\")");
    if(auto const* typ = header->if_contains("typ"))
    {
        // RFC 7515 §4.1.9: "application/" may be left out of the media type.
        if(!typ->is_string() ||
            !(agentio::detail::iequal(typ->get_string(), "JWT") ||
                agentio::detail::iequal(typ->get_string(), "application/jwt")))
            return fail(errc::malformed, "the header's \"typ\" is not JWT");
    }

    auto const signature = agentio::detail::base64url_decode(token.substr(dot2 + 1));
    if(!signature)
        return fail(errc::malformed, "the signature is not unpadded base64url");
    if(!detail::signature_verifies(alg_, secret_, key_.get(), signed_part, *signature))
        return fail(errc::bad_signature, "the " + std::string(to_string(alg_)) + " signature does not verify");

    // Signed by the key's holder from here on: the payload is worth reading.
    auto const payload_json = agentio::detail::base64url_decode(token.substr(dot1 + 1, dot2 - dot1 - 1));
    if(!payload_json)
        return fail(errc::malformed, "the payload is not unpadded base64url");
    auto payload = detail::parse_object(*payload_json);
    if(!payload)
        return fail(errc::malformed, "the payload is not a JSON object");

    auto const exp = detail::numeric_date(*payload, "exp");
    if(!exp)
        return exp.error();
    auto const nbf = detail::numeric_date(*payload, "nbf");
    if(!nbf)
        return nbf.error();
    double const now_s = std::chrono::duration<double>(now.time_since_epoch()).count();
    auto const leeway = static_cast<double>(options_.leeway.count());
    std::string const leeway_text = ", leeway " + std::to_string(options_.leeway.count()) + " s";
    if(!*exp && options_.require_expiry)
        return fail(errc::missing_expiry, "the token has no \"exp\"");
    if(*exp && !(now_s < **exp + leeway)) // RFC 7519 §4.1.4: valid strictly before exp
        return fail(errc::expired,
            "expired at " + detail::date_text(**exp) + ", now " + detail::date_text(now_s) + leeway_text);
    if(*nbf && now_s + leeway < **nbf)
        return fail(errc::not_yet_valid,
            "not valid before " + detail::date_text(**nbf) + ", now " + detail::date_text(now_s) + leeway_text);

    if(options_.issuer)
    {
        auto const* iss = payload->if_contains("iss");
        if(!iss || !iss->is_string() || iss->get_string() != *options_.issuer)
            return fail(errc::wrong_issuer,
                iss ? "the token's \"iss\" is not the expected issuer" : "the token has no \"iss\"");
    }

    if(auto const* aud = payload->if_contains("aud"))
    {
        if(!options_.audience)
            return fail(errc::wrong_audience, "the token has an \"aud\" and the verifier has no audience");
        bool found = false;
        if(aud->is_string())
            found = aud->get_string() == *options_.audience;
        else if(aud->is_array())
            found = std::any_of(aud->get_array().begin(), aud->get_array().end(),
                [&](json::value const& a) { return a.is_string() && a.get_string() == *options_.audience; });
        else
            return fail(errc::malformed, "the claim \"aud\" is neither a string nor an array");
        if(!found)
            return fail(errc::wrong_audience, "the token's \"aud\" does not name the expected audience");
    }
    else if(options_.audience)
        return fail(errc::wrong_audience, "the token has no \"aud\"");

    auto const* sub = payload->if_contains("sub");
    if(!sub || !sub->is_string() || sub->get_string().empty())
        return fail(errc::missing_subject, "the token has no \"sub\" string");

    claims out;
    out.subject = sub->get_string();
    out.payload = std::move(*payload);
    return out;
}

AGENTIO_DECL result<signing_key> signing_key::hs256(std::string_view secret)
{
    auto s = detail::hs256_secret(secret);
    if(!s)
        return s.error();
    return signing_key(algorithm::hs256, std::move(*s), nullptr);
}

AGENTIO_DECL result<signing_key> signing_key::from_private_key_pem(std::string_view pem)
{
    auto key = detail::read_pem(pem, true);
    if(!key)
        return key.error();
    auto const alg = detail::algorithm_of(key->get());
    if(!alg)
        return alg.error();
    return signing_key(*alg, {}, std::move(*key));
}

AGENTIO_DECL result<std::string> sign(json::object const& claims, signing_key const& key)
{
    json::object const header{{"alg", to_string(key.alg_)}, {"typ", "JWT"}};
    std::string token = agentio::detail::base64url_encode(json::serialize(header));
    token += '.';
    token += agentio::detail::base64url_encode(json::serialize(claims));
    auto const signature = detail::make_signature(key.alg_, key.secret_, key.key_.get(), token);
    if(!signature)
        return signature.error();
    token += '.';
    token += agentio::detail::base64url_encode(*signature);
    return token;
}

AGENTIO_DECL std::optional<std::string_view> bearer_token(std::string_view authorization) noexcept
{
    constexpr std::string_view scheme = "Bearer";
    if(authorization.size() <= scheme.size() || !agentio::detail::iequal(authorization.substr(0, 6), scheme) ||
        authorization[scheme.size()] != ' ')
        return std::nullopt;
    auto const start = authorization.find_first_not_of(' ', scheme.size());
    if(start == std::string_view::npos)
        return std::nullopt;
    std::string_view const token = authorization.substr(start);
    auto const padding = std::min(token.find('='), token.size());
    if(padding == 0 || !std::all_of(token.begin(), token.begin() + padding, detail::is_b64token_char) ||
        token.find_first_not_of('=', padding) != std::string_view::npos)
        return std::nullopt;
    return token;
}

} // namespace agentio::http::jwt

#endif
