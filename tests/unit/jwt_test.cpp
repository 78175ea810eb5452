// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Test that header file is self-contained.
#include <agentio/http/jwt.hpp>

#include <agentio/detail/base64.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/system/system_error.hpp>
#include <boost/test/unit_test.hpp>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

namespace http = agentio::http;
namespace json = boost::json;
namespace bsys = boost::system;
using agentio::detail::base64url_decode;
using agentio::detail::base64url_encode;

namespace {

// A fixed moment: 2026-01-01T00:00:00Z.
constexpr double t0 = 1767225600;

std::chrono::system_clock::time_point at(double seconds)
{
    return std::chrono::system_clock::time_point(
        std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::duration<double>(seconds)));
}

std::string const secret = "0123456789abcdef0123456789abcdef-a-long-enough-secret";

// A key pair in PEM: the private key as PKCS #8, the public as SubjectPublicKeyInfo.
struct key_pair
{
    std::string private_pem;
    std::string public_pem;
    std::shared_ptr<EVP_PKEY> key;
};

std::string bio_text(BIO* bio)
{
    char* data = nullptr;
    long const n = BIO_get_mem_data(bio, &data);
    return std::string(data, static_cast<std::size_t>(n));
}

key_pair pair_of(EVP_PKEY* raw)
{
    BOOST_REQUIRE(raw);
    key_pair out;
    out.key = std::shared_ptr<EVP_PKEY>(raw, EVP_PKEY_free);
    std::unique_ptr<BIO, decltype(&BIO_free)> priv(BIO_new(BIO_s_mem()), BIO_free);
    std::unique_ptr<BIO, decltype(&BIO_free)> pub(BIO_new(BIO_s_mem()), BIO_free);
    BOOST_REQUIRE(PEM_write_bio_PrivateKey(priv.get(), raw, nullptr, nullptr, 0, nullptr, nullptr) == 1);
    BOOST_REQUIRE(PEM_write_bio_PUBKEY(pub.get(), raw) == 1);
    out.private_pem = bio_text(priv.get());
    out.public_pem = bio_text(pub.get());
    return out;
}

key_pair rsa_key(std::size_t bits = 2048)
{
    return pair_of(EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", bits));
}

key_pair ec_key(char const* curve = "P-256")
{
    return pair_of(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", curve));
}

// Generated once: RSA key generation takes a while.
key_pair const& rsa1()
{
    static key_pair const k = rsa_key();
    return k;
}
key_pair const& rsa2()
{
    static key_pair const k = rsa_key();
    return k;
}
key_pair const& ec1()
{
    static key_pair const k = ec_key();
    return k;
}
key_pair const& ec2()
{
    static key_pair const k = ec_key();
    return k;
}

// A public key in another PEM form ("type-specific": RSA PUBLIC KEY, or a
// private key's EC PRIVATE KEY / RSA PRIVATE KEY).
std::string traditional_pem(EVP_PKEY* key, int selection)
{
    std::unique_ptr<OSSL_ENCODER_CTX, decltype(&OSSL_ENCODER_CTX_free)> enc(
        OSSL_ENCODER_CTX_new_for_pkey(key, selection, "PEM", "type-specific", nullptr), OSSL_ENCODER_CTX_free);
    BOOST_REQUIRE(enc);
    unsigned char* data = nullptr;
    std::size_t size = 0;
    BOOST_REQUIRE(OSSL_ENCODER_to_data(enc.get(), &data, &size) == 1);
    std::string out(reinterpret_cast<char const*>(data), size);
    OPENSSL_free(data);
    return out;
}

http::jwt::signing_key key_of(std::string_view private_pem)
{
    auto k = http::jwt::signing_key::from_private_key_pem(private_pem);
    BOOST_REQUIRE(k.has_value());
    return *k;
}

http::jwt::verifier verifier_of(std::string_view public_pem, http::jwt::verify_options options = {})
{
    auto v = http::jwt::verifier::from_public_key_pem(public_pem, std::move(options));
    BOOST_REQUIRE(v.has_value());
    return *v;
}

http::jwt::verifier hs_verifier(http::jwt::verify_options options = {})
{
    auto v = http::jwt::verifier::hs256(secret, std::move(options));
    BOOST_REQUIRE(v.has_value());
    return *v;
}

std::string sign_with(json::object const& claims, http::jwt::signing_key const& key)
{
    auto t = http::jwt::sign(claims, key);
    BOOST_REQUIRE(t.has_value());
    return *t;
}

std::string hs_sign(json::object const& claims)
{
    return sign_with(claims, http::jwt::signing_key::hs256(secret).value());
}

// Claims valid at t0.
json::object good_claims()
{
    return {{"sub", "ana"}, {"exp", t0 + 3600}, {"iat", t0}};
}

// The error of a result, or no error.
template<class T>
bsys::error_code error_of(http::jwt::result<T> const& r)
{
    return r ? bsys::error_code() : r.error().code;
}

// A token of any header and payload text, with a correct HS256 signature
// over exactly the segments given.
std::string hs_token_of_segments(std::string const& header_segment, std::string const& payload_segment)
{
    std::string const input = header_segment + "." + payload_segment;
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    BOOST_REQUIRE(HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
        reinterpret_cast<unsigned char const*>(input.data()), input.size(), mac, &length));
    return input + "." + base64url_encode(std::string_view(reinterpret_cast<char const*>(mac), length));
}

std::string hs_token(std::string_view header_json, std::string_view payload_json)
{
    return hs_token_of_segments(base64url_encode(header_json), base64url_encode(payload_json));
}

struct segments
{
    std::string header, payload, signature;
};

segments split(std::string const& token)
{
    auto const a = token.find('.');
    auto const b = token.find('.', a + 1);
    return {token.substr(0, a), token.substr(a + 1, b - a - 1), token.substr(b + 1)};
}

std::string join(segments const& s)
{
    return s.header + "." + s.payload + "." + s.signature;
}

// The token with one bit of its signature flipped.
std::string flip_signature_bit(std::string const& token)
{
    auto s = split(token);
    auto sig = base64url_decode(s.signature).value();
    sig[sig.size() / 2] ^= 0x01;
    s.signature = base64url_encode(sig);
    return join(s);
}

// The token with its payload replaced (its signature kept).
std::string replace_payload(std::string const& token, json::object const& claims)
{
    auto s = split(token);
    s.payload = base64url_encode(json::serialize(claims));
    return join(s);
}

std::string read_all(std::filesystem::path const& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_all(std::filesystem::path const& p, std::string_view text)
{
    std::ofstream out(p, std::ios::binary);
    out << text;
}

} // namespace

BOOST_AUTO_TEST_SUITE(jwt)

// RFC 7515 Appendix A.1: the HS256 example. Its payload has no "sub", which
// this verifier requires: the subject is the last check, so reaching
// missing_subject means the signature, the header and the other claims passed.
BOOST_AUTO_TEST_CASE(rfc7515_a1_example)
{
    std::string const token =
        "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
        ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
        ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    auto const key =
        base64url_decode("AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow");
    BOOST_REQUIRE(key.has_value());
    BOOST_TEST(key->size() == 64u);

    double const exp = 1300819380;
    auto const v = http::jwt::verifier::hs256(*key, {.issuer = "joe", .leeway = std::chrono::seconds(0)}).value();
    BOOST_TEST((error_of(v.verify(token, at(exp - 1))) == http::jwt::errc::missing_subject));
    BOOST_TEST((error_of(v.verify(token, at(exp))) == http::jwt::errc::expired));
    BOOST_TEST((error_of(v.verify(flip_signature_bit(token), at(exp - 1))) == http::jwt::errc::bad_signature));

    auto const bob = http::jwt::verifier::hs256(*key, {.issuer = "bob"}).value();
    BOOST_TEST((error_of(bob.verify(token, at(exp - 1))) == http::jwt::errc::wrong_issuer));

    auto const other = http::jwt::verifier::hs256(std::string(64, 'x')).value();
    BOOST_TEST((error_of(other.verify(token, at(exp - 1))) == http::jwt::errc::bad_signature));

    // Its claims with a "sub", signed again with its key: accepted.

    json::object claims{{"iss", "joe"}, {"exp", exp}, {"http://example.com/is_root", true}, {"sub", "joe"}};
    auto const resigned = http::jwt::sign(claims, http::jwt::signing_key::hs256(*key).value()).value();
    auto const c = v.verify(resigned, at(exp - 1));
    BOOST_REQUIRE(c.has_value());
    BOOST_TEST(c->subject == "joe");
    BOOST_TEST(c->payload.at("http://example.com/is_root").as_bool());
    BOOST_TEST(c->payload.at("exp").to_number<double>() == exp);
}

BOOST_AUTO_TEST_CASE(hs256_round_trip)
{
    json::object claims = good_claims();
    claims["iss"] = "portfolio";
    claims["aud"] = "api";
    claims["roles"] = json::array{"admin", "reader"};
    auto const token = hs_sign(claims);
    auto const s = split(token);
    BOOST_TEST(json::parse(base64url_decode(s.header).value()) == json::parse(R"({"alg":"HS256","typ":"JWT"})"));
    BOOST_TEST(base64url_decode(s.signature)->size() == 32u);

    auto const v = hs_verifier({.issuer = "portfolio", .audience = "api"});
    BOOST_TEST((v.alg() == http::jwt::algorithm::hs256));
    auto const c = v.verify(token, at(t0));
    BOOST_REQUIRE(c.has_value());
    BOOST_TEST(c->subject == "ana");
    BOOST_TEST(c->payload == claims);
}

BOOST_AUTO_TEST_CASE(rs256_round_trip)
{
    auto const key = key_of(rsa1().private_pem);
    BOOST_TEST((key.alg() == http::jwt::algorithm::rs256));
    auto const token = sign_with(good_claims(), key);
    auto const s = split(token);
    BOOST_TEST(json::parse(base64url_decode(s.header).value()) == json::parse(R"({"alg":"RS256","typ":"JWT"})"));
    BOOST_TEST(base64url_decode(s.signature)->size() == 256u);

    auto const v = verifier_of(rsa1().public_pem);
    BOOST_TEST((v.alg() == http::jwt::algorithm::rs256));
    auto const c = v.verify(token, at(t0));
    BOOST_REQUIRE(c.has_value());
    BOOST_TEST(c->subject == "ana");
    BOOST_TEST(c->payload == good_claims());
    BOOST_TEST(ERR_peek_error() == 0u);

    // The PKCS #1 forms: RSA PUBLIC KEY to verify, RSA PRIVATE KEY to sign.
    auto const pkcs1_public = traditional_pem(rsa1().key.get(), EVP_PKEY_PUBLIC_KEY);
    BOOST_TEST(pkcs1_public.starts_with("-----BEGIN RSA PUBLIC KEY-----"));
    BOOST_TEST(verifier_of(pkcs1_public).verify(token, at(t0)).has_value());
    auto const pkcs1_private = traditional_pem(rsa1().key.get(), EVP_PKEY_KEYPAIR);
    BOOST_TEST(pkcs1_private.starts_with("-----BEGIN RSA PRIVATE KEY-----"));
    BOOST_TEST(v.verify(sign_with(good_claims(), key_of(pkcs1_private)), at(t0)).has_value());
}

BOOST_AUTO_TEST_CASE(es256_round_trip)
{
    auto const key = key_of(ec1().private_pem);
    BOOST_TEST((key.alg() == http::jwt::algorithm::es256));
    auto const token = sign_with(good_claims(), key);
    auto const s = split(token);
    BOOST_TEST(json::parse(base64url_decode(s.header).value()) == json::parse(R"({"alg":"ES256","typ":"JWT"})"));
    BOOST_TEST(base64url_decode(s.signature)->size() == 64u);

    auto const v = verifier_of(ec1().public_pem);
    BOOST_TEST((v.alg() == http::jwt::algorithm::es256));
    auto const c = v.verify(token, at(t0));
    BOOST_REQUIRE(c.has_value());
    BOOST_TEST(c->subject == "ana");

    // ECDSA signatures are randomized: another one, also good.
    auto const again = sign_with(good_claims(), key);
    BOOST_TEST(again != token);
    BOOST_TEST(v.verify(again, at(t0)).has_value());

    // The SEC 1 form of the private key.
    auto const sec1 = traditional_pem(ec1().key.get(), EVP_PKEY_KEYPAIR);
    BOOST_TEST(sec1.starts_with("-----BEGIN EC PRIVATE KEY-----"));
    BOOST_TEST(v.verify(sign_with(good_claims(), key_of(sec1)), at(t0)).has_value());
}

BOOST_AUTO_TEST_CASE(tampering_breaks_the_signature)
{
    json::object forged = good_claims();
    forged["sub"] = "root";
    struct
    {
        std::string token;
        http::jwt::verifier v;
    } const cases[] = {
        {hs_sign(good_claims()), hs_verifier()},
        {sign_with(good_claims(), key_of(rsa1().private_pem)), verifier_of(rsa1().public_pem)},
        {sign_with(good_claims(), key_of(ec1().private_pem)), verifier_of(ec1().public_pem)},
    };
    for(auto const& c : cases)
    {
        BOOST_TEST_CONTEXT(http::jwt::to_string(c.v.alg()))
        {
            BOOST_TEST(c.v.verify(c.token, at(t0)).has_value());
            BOOST_TEST((error_of(c.v.verify(replace_payload(c.token, forged), at(t0))) ==
                http::jwt::errc::bad_signature));
            BOOST_TEST((error_of(c.v.verify(flip_signature_bit(c.token), at(t0))) == http::jwt::errc::bad_signature));
            // No signature at all.
            auto s = split(c.token);
            s.signature.clear();
            BOOST_TEST((error_of(c.v.verify(join(s), at(t0))) == http::jwt::errc::bad_signature));
            // Failures leave nothing in OpenSSL's error queue of this thread.
            BOOST_TEST(ERR_peek_error() == 0u);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_wrong_key_is_refused)
{
    auto const hs = hs_sign(good_claims());
    auto const other_secret = http::jwt::verifier::hs256(secret + "!").value();
    BOOST_TEST((error_of(other_secret.verify(hs, at(t0))) == http::jwt::errc::bad_signature));

    auto const rs = sign_with(good_claims(), key_of(rsa1().private_pem));
    BOOST_TEST((error_of(verifier_of(rsa2().public_pem).verify(rs, at(t0))) == http::jwt::errc::bad_signature));

    auto const es = sign_with(good_claims(), key_of(ec1().private_pem));
    BOOST_TEST((error_of(verifier_of(ec2().public_pem).verify(es, at(t0))) == http::jwt::errc::bad_signature));
}

BOOST_AUTO_TEST_CASE(alg_none_is_always_refused)
{
    auto const payload = base64url_encode(json::serialize(good_claims()));
    for(std::string_view alg : {"none", "None", "NONE"})
    {
        auto const header = base64url_encode(R"({"alg":")" + std::string(alg) + R"(","typ":"JWT"})");
        for(auto const& v : {hs_verifier(), verifier_of(rsa1().public_pem), verifier_of(ec1().public_pem)})
        {
            BOOST_TEST((error_of(v.verify(header + "." + payload + ".", at(t0))) ==
                http::jwt::errc::unsupported_algorithm));
            // Even with a signature that is right for HS256.
            BOOST_TEST((error_of(v.verify(hs_token_of_segments(header, payload), at(t0))) ==
                http::jwt::errc::unsupported_algorithm));
        }
    }
    // Other algorithms this library does not verify.
    for(std::string_view alg : {"HS512", "RS384", "PS256", "EdDSA", "hs256", ""})
        BOOST_TEST((error_of(hs_verifier().verify(hs_token(R"({"alg":")" + std::string(alg) + R"("})",
                                                      json::serialize(good_claims())),
                        at(t0))) == http::jwt::errc::unsupported_algorithm));
    BOOST_TEST((error_of(hs_verifier().verify(hs_token(R"({"typ":"JWT"})", json::serialize(good_claims())), at(t0))) ==
        http::jwt::errc::malformed));
    BOOST_TEST((error_of(hs_verifier().verify(hs_token(R"({"alg":1})", json::serialize(good_claims())), at(t0))) ==
        http::jwt::errc::malformed));
}

// The classic attack: an HS256 token whose HMAC key is the RSA public key's
// PEM text, which a naive library would feed to HMAC as the "key".
BOOST_AUTO_TEST_CASE(alg_confusion_is_refused)
{
    auto const forged =
        http::jwt::sign(good_claims(), http::jwt::signing_key::hs256(rsa1().public_pem).value()).value();
    auto const rs = verifier_of(rsa1().public_pem);
    auto const r = rs.verify(forged, at(t0));
    BOOST_TEST((error_of(r) == http::jwt::errc::algorithm_mismatch));
    BOOST_TEST(r.error().message == "the header says HS256, the key is for RS256");

    // Every other pairing too.
    auto const es = verifier_of(ec1().public_pem);
    auto const rs_token = sign_with(good_claims(), key_of(rsa1().private_pem));
    auto const es_token = sign_with(good_claims(), key_of(ec1().private_pem));
    BOOST_TEST((error_of(es.verify(forged, at(t0))) == http::jwt::errc::algorithm_mismatch));
    BOOST_TEST((error_of(hs_verifier().verify(rs_token, at(t0))) == http::jwt::errc::algorithm_mismatch));
    BOOST_TEST((error_of(hs_verifier().verify(es_token, at(t0))) == http::jwt::errc::algorithm_mismatch));
    BOOST_TEST((error_of(rs.verify(es_token, at(t0))) == http::jwt::errc::algorithm_mismatch));
    BOOST_TEST((error_of(es.verify(rs_token, at(t0))) == http::jwt::errc::algorithm_mismatch));
}

BOOST_AUTO_TEST_CASE(expiry_with_and_without_leeway)
{
    json::object claims = good_claims();
    claims["exp"] = t0;
    auto const token = hs_sign(claims);
    auto const strict = hs_verifier({.leeway = std::chrono::seconds(0)});
    auto const lenient = hs_verifier(); // 60 s

    BOOST_TEST(strict.verify(token, at(t0 - 1)).has_value());
    BOOST_TEST(strict.verify(token, at(t0 - 0.001)).has_value());
    auto const r = strict.verify(token, at(t0)); // valid strictly before exp
    BOOST_TEST((error_of(r) == http::jwt::errc::expired));
    BOOST_TEST(r.error().message == "expired at 1767225600, now 1767225600, leeway 0 s");
    BOOST_TEST(lenient.verify(token, at(t0 + 59)).has_value());
    BOOST_TEST((error_of(lenient.verify(token, at(t0 + 60))) == http::jwt::errc::expired));

    // NumericDate may be fractional.
    claims["exp"] = t0 + 0.5;
    auto const fractional = hs_sign(claims);
    BOOST_TEST(strict.verify(fractional, at(t0 + 0.25)).has_value());
    BOOST_TEST((error_of(strict.verify(fractional, at(t0 + 0.5))) == http::jwt::errc::expired));

    // Required unless told otherwise.
    claims.erase("exp");
    auto const forever = hs_sign(claims);
    BOOST_TEST((error_of(strict.verify(forever, at(t0))) == http::jwt::errc::missing_expiry));
    BOOST_TEST(hs_verifier({.require_expiry = false}).verify(forever, at(t0)).has_value());

    claims["exp"] = "tomorrow";
    BOOST_TEST((error_of(strict.verify(hs_sign(claims), at(t0))) == http::jwt::errc::malformed));
    BOOST_TEST((error_of(hs_verifier({.require_expiry = false}).verify(hs_sign(claims), at(t0))) ==
        http::jwt::errc::malformed));

    // An unsigned integer is a number too.
    claims["exp"] = static_cast<std::uint64_t>(t0 + 10);
    BOOST_TEST(strict.verify(hs_sign(claims), at(t0)).has_value());
}

BOOST_AUTO_TEST_CASE(not_before_with_and_without_leeway)
{
    json::object claims = good_claims();
    claims["nbf"] = t0;
    auto const token = hs_sign(claims);
    auto const strict = hs_verifier({.leeway = std::chrono::seconds(0)});
    auto const lenient = hs_verifier();

    BOOST_TEST(strict.verify(token, at(t0)).has_value());
    auto const r = strict.verify(token, at(t0 - 1));
    BOOST_TEST((error_of(r) == http::jwt::errc::not_yet_valid));
    BOOST_TEST(r.error().message == "not valid before 1767225600, now 1767225599, leeway 0 s");
    BOOST_TEST(lenient.verify(token, at(t0 - 60)).has_value());
    BOOST_TEST((error_of(lenient.verify(token, at(t0 - 61))) == http::jwt::errc::not_yet_valid));

    claims["nbf"] = t0 + 0.5;
    BOOST_TEST((error_of(strict.verify(hs_sign(claims), at(t0 + 0.25))) == http::jwt::errc::not_yet_valid));
    BOOST_TEST(strict.verify(hs_sign(claims), at(t0 + 0.5)).has_value());

    claims["nbf"] = json::array{t0};
    BOOST_TEST((error_of(strict.verify(hs_sign(claims), at(t0))) == http::jwt::errc::malformed));

    // iat is not a validity check: one in the future is fine.
    claims.erase("nbf");
    claims["iat"] = t0 + 1000;
    BOOST_TEST(strict.verify(hs_sign(claims), at(t0)).has_value());
}

BOOST_AUTO_TEST_CASE(issuer)
{
    auto const v = hs_verifier({.issuer = "https://id.example"});
    json::object claims = good_claims();
    BOOST_TEST((error_of(v.verify(hs_sign(claims), at(t0))) == http::jwt::errc::wrong_issuer));
    claims["iss"] = "https://id.example";
    BOOST_TEST(v.verify(hs_sign(claims), at(t0)).has_value());
    claims["iss"] = "https://id.example/";
    BOOST_TEST((error_of(v.verify(hs_sign(claims), at(t0))) == http::jwt::errc::wrong_issuer));
    claims["iss"] = "HTTPS://ID.EXAMPLE";
    BOOST_TEST((error_of(v.verify(hs_sign(claims), at(t0))) == http::jwt::errc::wrong_issuer));
    claims["iss"] = json::array{"https://id.example"};
    BOOST_TEST((error_of(v.verify(hs_sign(claims), at(t0))) == http::jwt::errc::wrong_issuer));
    // No issuer configured: any.
    BOOST_TEST(hs_verifier().verify(hs_sign(claims), at(t0)).has_value());
}

BOOST_AUTO_TEST_CASE(audience)
{
    auto const v = hs_verifier({.audience = "api"});
    json::object claims = good_claims();
    BOOST_TEST((error_of(v.verify(hs_sign(claims), at(t0))) == http::jwt::errc::wrong_audience));
    BOOST_TEST(hs_verifier().verify(hs_sign(claims), at(t0)).has_value());

    claims["aud"] = "api";
    BOOST_TEST(v.verify(hs_sign(claims), at(t0)).has_value());
    claims["aud"] = "web";
    BOOST_TEST((error_of(v.verify(hs_sign(claims), at(t0))) == http::jwt::errc::wrong_audience));
    claims["aud"] = json::array{"web", "api"};
    BOOST_TEST(v.verify(hs_sign(claims), at(t0)).has_value());
    claims["aud"] = json::array{"web", "API", 1};
    BOOST_TEST((error_of(v.verify(hs_sign(claims), at(t0))) == http::jwt::errc::wrong_audience));
    claims["aud"] = json::array{};
    BOOST_TEST((error_of(v.verify(hs_sign(claims), at(t0))) == http::jwt::errc::wrong_audience));
    claims["aud"] = 7;
    BOOST_TEST((error_of(v.verify(hs_sign(claims), at(t0))) == http::jwt::errc::malformed));

    // A token meant for someone, and a verifier that does not know who it is.
    claims["aud"] = "api";
    BOOST_TEST((error_of(hs_verifier().verify(hs_sign(claims), at(t0))) == http::jwt::errc::wrong_audience));
}

BOOST_AUTO_TEST_CASE(subject)
{
    auto const v = hs_verifier();
    json::object claims = good_claims();
    claims.erase("sub");
    BOOST_TEST((error_of(v.verify(hs_sign(claims), at(t0))) == http::jwt::errc::missing_subject));
    claims["sub"] = "";
    BOOST_TEST((error_of(v.verify(hs_sign(claims), at(t0))) == http::jwt::errc::missing_subject));
    claims["sub"] = 42;
    BOOST_TEST((error_of(v.verify(hs_sign(claims), at(t0))) == http::jwt::errc::missing_subject));
    claims["sub"] = nullptr;
    BOOST_TEST((error_of(v.verify(hs_sign(claims), at(t0))) == http::jwt::errc::missing_subject));
}

BOOST_AUTO_TEST_CASE(strict_base64url)
{
    auto const v = hs_verifier();
    auto const token = hs_sign(good_claims());
    auto const s = split(token);
    BOOST_TEST(v.verify(token, at(t0)).has_value());

    // Padding: on a signature of 32 bytes (43 characters, one '=' in base64)…
    BOOST_REQUIRE(s.signature.size() == 43u);
    BOOST_TEST((error_of(v.verify(join({s.header, s.payload, s.signature + "="}), at(t0))) ==
        http::jwt::errc::malformed));
    // …on the header, and on a payload signed as it is (so only the decoding can refuse it).
    auto const header = base64url_encode(R"({"alg":"HS256"})"); // 15 bytes: 20 characters, no padding needed
    auto const payload = base64url_encode(json::serialize(good_claims()));
    BOOST_REQUIRE(payload.size() % 4 != 0);
    BOOST_TEST(v.verify(hs_token_of_segments(header, payload), at(t0)).has_value());
    auto const padded_payload = payload + std::string((4 - payload.size() % 4) % 4, '=');
    BOOST_TEST((error_of(v.verify(hs_token_of_segments(header, padded_payload), at(t0))) ==
        http::jwt::errc::malformed));
    auto const eyj = base64url_encode(R"({"alg":"HS256","typ":"JWT"})"); // 27 bytes: 36 characters
    BOOST_TEST((error_of(v.verify(hs_token_of_segments(eyj + "====", payload), at(t0))) == http::jwt::errc::malformed));

    // The base64 alphabet's '+' and '/', blanks and other characters.
    std::string const signature_bytes = base64url_decode(s.signature).value();
    std::string std_alphabet = agentio::detail::base64_encode(signature_bytes);
    std_alphabet.pop_back();        // its '='
    if(std_alphabet != s.signature) // this signature has a '-' or '_'
        BOOST_TEST((error_of(v.verify(join({s.header, s.payload, std_alphabet}), at(t0))) ==
            http::jwt::errc::malformed));
    for(std::string_view bad : {" ", "\n", "+", "/", "*", "%3D"})
    {
        auto sig = s.signature;
        sig.insert(10, bad);
        BOOST_TEST((error_of(v.verify(join({s.header, s.payload, sig}), at(t0))) == http::jwt::errc::malformed));
    }
    BOOST_TEST((error_of(v.verify(join({s.header + " ", s.payload, s.signature}), at(t0))) ==
        http::jwt::errc::malformed));

    // Bits left over: 32 bytes are 256 bits, 43 characters 258: the last
    // character carries 4 bits and 2 zeros. The next character of the
    // alphabet sets a zero bit, and would decode to the same bytes.
    auto sig = s.signature;
    char& last = sig.back();
    BOOST_REQUIRE(std::string_view("AEIMQUYcgkosw048").find(last) != std::string_view::npos);
    last = static_cast<char>(last + 1);
    BOOST_TEST((error_of(v.verify(join({s.header, s.payload, sig}), at(t0))) == http::jwt::errc::malformed));
    // A length no base64 has (4n + 1).
    BOOST_TEST((error_of(v.verify(join({s.header, s.payload, s.signature + "AA"}), at(t0))) ==
        http::jwt::errc::malformed)); // 45 characters

    // The decoder itself.
    BOOST_TEST(base64url_decode("").value() == "");
    BOOST_TEST(base64url_decode("_-8").value() == "\xff\xef");
    BOOST_TEST(!base64url_decode("_-9"));  // bits left over
    BOOST_TEST(!base64url_decode("_-8=")); // padding
    BOOST_TEST(!base64url_decode("A"));
    BOOST_TEST(base64url_encode("\xff\xef") == "_-8");
}

BOOST_AUTO_TEST_CASE(three_segments_exactly)
{
    auto const v = hs_verifier();
    auto const token = hs_sign(good_claims());
    auto const s = split(token);
    for(std::string const& bad : {s.header + "." + s.payload, token + "." + s.signature, token + ".", "." + token,
            token + "..x.y", std::string(), std::string("."), std::string(".."), std::string("a.b.c"), s.header})
    {
        auto const r = v.verify(bad, at(t0));
        BOOST_TEST((error_of(r) == http::jwt::errc::malformed), bad);
    }
    BOOST_TEST(v.verify(s.header + "." + s.payload, at(t0)).error().message == "the token has 2 segments, not 3");
    BOOST_TEST(v.verify(token + "." + s.signature, at(t0)).error().message == "the token has 4 segments, not 3");
}

BOOST_AUTO_TEST_CASE(size_limit)
{
    auto const v = hs_verifier();
    BOOST_TEST((error_of(v.verify(std::string(8193, 'a'), at(t0))) == http::jwt::errc::too_large));
    BOOST_TEST((error_of(v.verify(std::string(8192, 'a'), at(t0))) == http::jwt::errc::malformed));

    // A real token over the limit, checked before its signature.
    json::object claims = good_claims();
    claims["padding"] = std::string(7000, 'x');
    auto const token = hs_sign(claims);
    BOOST_REQUIRE(token.size() > 8192u);
    BOOST_TEST((error_of(v.verify(token, at(t0))) == http::jwt::errc::too_large));
    BOOST_TEST(hs_verifier({.max_token_bytes = 16384}).verify(token, at(t0)).has_value());
    auto const small = hs_verifier({.max_token_bytes = 100});
    BOOST_TEST((error_of(small.verify(hs_sign(good_claims()), at(t0))) == http::jwt::errc::too_large));
}

BOOST_AUTO_TEST_CASE(header_and_payload_are_objects)
{
    auto const v = hs_verifier();
    auto const payload = json::serialize(good_claims());
    for(std::string_view header : {"[\"HS256\"]", "\"HS256\"", "1", "null", "{\"alg\":\"HS256\"", "",
            "{\"alg\":\"HS256\"} x", "{'alg':'HS256'}", "{\"alg\":\"HS\xff\"}"})
        BOOST_TEST((error_of(v.verify(hs_token(header, payload), at(t0))) == http::jwt::errc::malformed), header);
    for(std::string_view body : {"[]", "\"ana\"", "1", "", "{\"sub\":\"ana\",}"})
        BOOST_TEST((error_of(v.verify(hs_token(R"({"alg":"HS256"})", body), at(t0))) == http::jwt::errc::malformed),
            body);

    // Whitespace inside the JSON is JSON's business.
    BOOST_TEST(v.verify(hs_token("{ \"alg\" : \"HS256\" }\r\n", payload), at(t0)).has_value());
}

BOOST_AUTO_TEST_CASE(typ_and_crit)
{
    auto const v = hs_verifier();
    auto const payload = json::serialize(good_claims());
    for(std::string_view typ : {"JWT", "jwt", "Jwt", "application/jwt", "application/JWT"})
        BOOST_TEST(
            v.verify(hs_token(R"({"alg":"HS256","typ":")" + std::string(typ) + "\"}", payload), at(t0)).has_value(),
            typ);
    for(std::string_view typ : {R"("JOSE")", R"("at+jwt")", R"("")", "1", "null", R"(["JWT"])"})
        BOOST_TEST((error_of(v.verify(hs_token(R"({"alg":"HS256","typ":)" + std::string(typ) + "}", payload),
                        at(t0))) == http::jwt::errc::malformed),
            typ);
    BOOST_TEST((error_of(v.verify(hs_token(R"({"alg":"HS256","crit":["exp"],"exp":1})", payload), at(t0))) ==
        http::jwt::errc::unsupported_algorithm));
}

BOOST_AUTO_TEST_CASE(es256_signature_length)
{
    auto const v = verifier_of(ec1().public_pem);
    auto const token = sign_with(good_claims(), key_of(ec1().private_pem));
    auto s = split(token);
    auto const raw = base64url_decode(s.signature).value();
    BOOST_REQUIRE(raw.size() == 64u);

    // The DER form OpenSSL itself produces, which JOSE does not use.
    std::unique_ptr<ECDSA_SIG, decltype(&ECDSA_SIG_free)> sig(ECDSA_SIG_new(), ECDSA_SIG_free);
    auto const* p = reinterpret_cast<unsigned char const*>(raw.data());
    BOOST_REQUIRE(ECDSA_SIG_set0(sig.get(), BN_bin2bn(p, 32, nullptr), BN_bin2bn(p + 32, 32, nullptr)) == 1);
    std::string der(static_cast<std::size_t>(i2d_ECDSA_SIG(sig.get(), nullptr)), '\0');
    auto* out = reinterpret_cast<unsigned char*>(der.data());
    i2d_ECDSA_SIG(sig.get(), &out);

    for(std::string const& bad : {raw.substr(0, 63), raw + '\0', std::string(1, '\0') + raw, der, raw + raw,
            std::string(64, '\0'), std::string(64, '\xff')})
    {
        s.signature = base64url_encode(bad);
        BOOST_TEST((error_of(v.verify(join(s), at(t0))) == http::jwt::errc::bad_signature));
    }
    BOOST_TEST(ERR_peek_error() == 0u);
}

BOOST_AUTO_TEST_CASE(keys)
{
    // Secrets of at least 32 bytes.
    BOOST_TEST((error_of(http::jwt::verifier::hs256(std::string(31, 'k'))) == http::jwt::errc::bad_key));
    BOOST_TEST((error_of(http::jwt::signing_key::hs256("")) == http::jwt::errc::bad_key));
    BOOST_TEST(http::jwt::verifier::hs256(std::string(32, 'k')).has_value());

    // Not a key.
    for(std::string_view pem : {"", "hello", "-----BEGIN PUBLIC KEY-----\nnot base64\n-----END PUBLIC KEY-----\n",
            "-----BEGIN RSA PUBLIC KEY-----\nAAAA\n-----END RSA PUBLIC KEY-----\n"})
        BOOST_TEST((error_of(http::jwt::verifier::from_public_key_pem(pem)) == http::jwt::errc::bad_key), pem);
    BOOST_TEST((error_of(http::jwt::signing_key::from_private_key_pem("hello")) == http::jwt::errc::bad_key));
    // A private key where a public one is expected, and the other way round.
    BOOST_TEST((error_of(http::jwt::verifier::from_public_key_pem(rsa1().private_pem)) == http::jwt::errc::bad_key));
    BOOST_TEST((error_of(http::jwt::signing_key::from_private_key_pem(rsa1().public_pem)) == http::jwt::errc::bad_key));
    // An encrypted private key is refused, without asking for a passphrase.
    {
        std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
        char pass[] = "passphrase";
        BOOST_REQUIRE(PEM_write_bio_PKCS8PrivateKey(bio.get(), ec1().key.get(), EVP_aes_256_cbc(), pass,
                          static_cast<int>(sizeof pass - 1), nullptr, nullptr) == 1);
        auto const encrypted = bio_text(bio.get());
        BOOST_TEST(encrypted.starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----"));
        BOOST_TEST((error_of(http::jwt::signing_key::from_private_key_pem(encrypted)) == http::jwt::errc::bad_key));
    }
    BOOST_TEST(ERR_peek_error() == 0u);

    // RSA under 2048 bits, EC on another curve, other kinds of key.
    auto const small = rsa_key(1024);
    auto const r = http::jwt::verifier::from_public_key_pem(small.public_pem);
    BOOST_TEST((error_of(r) == http::jwt::errc::bad_key));
    BOOST_TEST(r.error().message == "an RSA key of 1024 bits; RS256 needs 2048 or more");
    BOOST_TEST((error_of(http::jwt::signing_key::from_private_key_pem(small.private_pem)) == http::jwt::errc::bad_key));
    auto const p384 = ec_key("P-384");
    auto const e = http::jwt::verifier::from_public_key_pem(p384.public_pem);
    BOOST_TEST((error_of(e) == http::jwt::errc::bad_key));
    BOOST_TEST(e.error().message == "an EC key on secp384r1; ES256 needs P-256");
    BOOST_TEST((error_of(http::jwt::signing_key::from_private_key_pem(p384.private_pem)) == http::jwt::errc::bad_key));
    auto const ed = pair_of(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"));
    BOOST_TEST((error_of(http::jwt::verifier::from_public_key_pem(ed.public_pem)) ==
        http::jwt::errc::unsupported_algorithm));
    BOOST_TEST((error_of(http::jwt::signing_key::from_private_key_pem(ed.private_pem)) ==
        http::jwt::errc::unsupported_algorithm));

    // Text around the PEM block is ignored, as OpenSSL does.
    BOOST_TEST(http::jwt::verifier::from_public_key_pem("the key:\n" + ec1().public_pem + "\nend\n").has_value());
}

BOOST_AUTO_TEST_CASE(errors)
{
    auto const code = make_error_code(http::jwt::errc::expired);
    BOOST_TEST(code.category().name() == std::string("agentio.http.jwt"));
    BOOST_TEST(code.message() == "token expired");
    BOOST_TEST((code == http::jwt::errc::expired));
    BOOST_TEST(make_error_code(http::jwt::errc::algorithm_mismatch).message() ==
        "token algorithm differs from the key's");
    BOOST_TEST(http::jwt::to_string(http::jwt::algorithm::es256) == "ES256");

    auto const r = hs_verifier().verify("x", at(t0));
    BOOST_CHECK_THROW((void)r.value(), bsys::system_error);
    try
    {
        (void)r.value();
    }
    catch(bsys::system_error const& ex)
    {
        BOOST_TEST((ex.code() == http::jwt::errc::malformed));
        BOOST_TEST(std::string(ex.what()).starts_with("the token has 1 segment, not 3"));
    }
    // The default "now" is the clock's: a token valid for an hour from now.
    json::object claims{{"sub", "ana"},
        {"exp",
            std::chrono::duration_cast<std::chrono::seconds>(
                (std::chrono::system_clock::now() + std::chrono::hours(1)).time_since_epoch())
                .count()}};
    BOOST_TEST(hs_verifier().verify(hs_sign(claims)).has_value());
    claims["exp"] = t0 - 3600 * 24 * 365;
    BOOST_TEST((error_of(hs_verifier().verify(hs_sign(claims))) == http::jwt::errc::expired));
}

BOOST_AUTO_TEST_CASE(bearer_header)
{
    using http::jwt::bearer_token;
    BOOST_TEST(bearer_token("Bearer abc.def.ghi").value() == "abc.def.ghi");
    BOOST_TEST(bearer_token("bearer abc").value() == "abc");
    BOOST_TEST(bearer_token("BEARER   abc").value() == "abc");
    BOOST_TEST(bearer_token("Bearer a-b_c~d+e/f==").value() == "a-b_c~d+e/f==");
    for(std::string_view bad :
        {"", "Bearer", "Bearer ", "Bearer    ", "Bearerabc", "Bearer\tabc", "Basic abc", " Bearer abc", "Bearer abc ",
            "Bearer abc def", "Bearer a=b", "Bearer =", "Bearer abc,", "Token abc", "Bearer abc\r\n", "Bearer \"abc\""})
        BOOST_TEST(!bearer_token(bad), '\'' << bad << '\'');
}

// The command line tool signs what this library verifies, and verifies what it signs.
BOOST_AUTO_TEST_CASE(openssl_command_line)
{
    if(std::system("openssl version > /dev/null 2>&1") != 0)
    {
        BOOST_TEST_MESSAGE("no openssl command: skipped");
        return;
    }
    auto const dir = std::filesystem::temp_directory_path() / ("agentio_jwt_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    write_all(dir / "rsa.pem", rsa1().private_pem);
    write_all(dir / "rsa.pub", rsa1().public_pem);
    write_all(dir / "ec.pem", ec1().private_pem);
    write_all(dir / "ec.pub", ec1().public_pem);
    auto const run = [&](std::string const& args) {
        std::string const command = "cd '" + dir.string() + "' && openssl " + args + " > /dev/null 2>&1";
        return std::system(command.c_str()) == 0;
    };

    std::string const input = base64url_encode(R"({"alg":"RS256","typ":"JWT"})") + "." +
        base64url_encode(json::serialize(good_claims()));
    write_all(dir / "input", input);

    // RS256: the tool signs, the library verifies.
    BOOST_REQUIRE(run("dgst -sha256 -sign rsa.pem -out rsa.sig input"));
    auto const rs_token = input + "." + base64url_encode(read_all(dir / "rsa.sig"));
    BOOST_TEST(verifier_of(rsa1().public_pem).verify(rs_token, at(t0)).has_value());
    // …and the library signs what the tool verifies (PKCS #1 v1.5 is deterministic: the same bytes).
    auto const ours = split(sign_with(good_claims(), key_of(rsa1().private_pem)));
    BOOST_TEST(ours.header + "." + ours.payload == input);
    BOOST_TEST(ours.signature == split(rs_token).signature);
    write_all(dir / "ours.sig", base64url_decode(ours.signature).value());
    BOOST_TEST(run("dgst -sha256 -verify rsa.pub -signature ours.sig input"));
    write_all(dir / "ours.sig", base64url_decode(split(flip_signature_bit(rs_token)).signature).value());
    BOOST_TEST(!run("dgst -sha256 -verify rsa.pub -signature ours.sig input"));

    // ES256: the tool's signature is DER; JOSE's is r || s.
    std::string const es_input = base64url_encode(R"({"alg":"ES256","typ":"JWT"})") + "." +
        base64url_encode(json::serialize(good_claims()));
    write_all(dir / "es_input", es_input);
    BOOST_REQUIRE(run("dgst -sha256 -sign ec.pem -out ec.sig es_input"));
    auto const der = read_all(dir / "ec.sig");
    auto const* p = reinterpret_cast<unsigned char const*>(der.data());
    std::unique_ptr<ECDSA_SIG, decltype(&ECDSA_SIG_free)> sig(d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der.size())),
        ECDSA_SIG_free);
    BOOST_REQUIRE(sig);
    std::string raw(64, '\0');
    BN_bn2binpad(ECDSA_SIG_get0_r(sig.get()), reinterpret_cast<unsigned char*>(raw.data()), 32);
    BN_bn2binpad(ECDSA_SIG_get0_s(sig.get()), reinterpret_cast<unsigned char*>(raw.data()) + 32, 32);
    BOOST_TEST(verifier_of(ec1().public_pem).verify(es_input + "." + base64url_encode(raw), at(t0)).has_value());
    // The DER itself is not a JOSE signature.
    BOOST_TEST((error_of(verifier_of(ec1().public_pem).verify(es_input + "." + base64url_encode(der), at(t0))) ==
        http::jwt::errc::bad_signature));
    // The library's r || s, as DER, verifies with the tool.
    auto const es_ours = split(sign_with(good_claims(), key_of(ec1().private_pem)));
    BOOST_TEST(es_ours.header + "." + es_ours.payload == es_input);
    auto const ours_raw = base64url_decode(es_ours.signature).value();
    auto const* q = reinterpret_cast<unsigned char const*>(ours_raw.data());
    std::unique_ptr<ECDSA_SIG, decltype(&ECDSA_SIG_free)> ours_sig(ECDSA_SIG_new(), ECDSA_SIG_free);
    BOOST_REQUIRE(ECDSA_SIG_set0(ours_sig.get(), BN_bin2bn(q, 32, nullptr), BN_bin2bn(q + 32, 32, nullptr)) == 1);
    std::string ours_der(static_cast<std::size_t>(i2d_ECDSA_SIG(ours_sig.get(), nullptr)), '\0');
    auto* out = reinterpret_cast<unsigned char*>(ours_der.data());
    i2d_ECDSA_SIG(ours_sig.get(), &out);
    write_all(dir / "ours_ec.sig", ours_der);
    BOOST_TEST(run("dgst -sha256 -verify ec.pub -signature ours_ec.sig es_input"));

    // HS256: the tool's HMAC is the library's.
    std::string hex;
    for(unsigned char c : secret)
    {
        char buf[3];
        std::snprintf(buf, sizeof buf, "%02x", c);
        hex += buf;
    }
    std::string const hs_input = base64url_encode(R"({"alg":"HS256","typ":"JWT"})") + "." +
        base64url_encode(json::serialize(good_claims()));
    write_all(dir / "hs_input", hs_input);
    BOOST_REQUIRE(run("dgst -sha256 -mac HMAC -macopt hexkey:" + hex + " -binary -out hs.mac hs_input"));
    auto const hs_token_by_tool = hs_input + "." + base64url_encode(read_all(dir / "hs.mac"));
    BOOST_TEST(hs_token_by_tool == hs_sign(good_claims()));
    BOOST_TEST(hs_verifier().verify(hs_token_by_tool, at(t0)).has_value());

    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
