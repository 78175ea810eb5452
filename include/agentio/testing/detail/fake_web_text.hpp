//
// agentio/testing/detail/fake_web_text.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What the fake web services share: an answer before it is an HTTP
// response, words and case, HTML and URL escaping, query strings, numbers
// as the services write them, dates.
//

#ifndef AGENTIO_TESTING_DETAIL_FAKE_WEB_TEXT_HPP
#define AGENTIO_TESTING_DETAIL_FAKE_WEB_TEXT_HPP

#include <agentio/detail/utf8.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentio::testing::detail {

// An answer of a fake service, before it becomes an HTTP response.
struct web_answer
{
    unsigned status = 200;
    std::string content_type = "application/json; charset=utf-8";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    bool chunked = false; // Open-Meteo streams its bodies
};

inline web_answer json_answer(unsigned status, std::string body)
{
    web_answer a;
    a.status = status;
    a.body = std::move(body);
    return a;
}

inline web_answer html_answer(unsigned status, std::string body)
{
    web_answer a;
    a.status = status;
    a.content_type = "text/html; charset=UTF-8";
    a.body = std::move(body);
    return a;
}

// FNV-1a: what makes ids, tokens and weather deterministic.
inline std::uint64_t web_hash(std::string_view s, std::uint64_t h = 14695981039346656037ull) noexcept
{
    for(unsigned char c : s)
    {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

// A number in [0, 1) from a hash.
inline double unit_of(std::uint64_t h) noexcept
{
    h ^= h >> 33; // the low bits of FNV-1a are weak: mix them
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return static_cast<double>(h >> 11) / 9007199254740992.0;
}

// ================================================================================
// Words and case
// ================================================================================

// Lower case for ASCII and the Latin-1 capitals (À–Þ but ×), which keeps
// byte lengths; accents stay as written: "Á" → "á", never "a".
inline std::string lower_text(std::string_view s)
{
    std::string out(s);
    for(std::size_t i = 0; i < out.size(); ++i)
    {
        auto const b = static_cast<unsigned char>(out[i]);
        if(b >= 'A' && b <= 'Z')
            out[i] = static_cast<char>(b + 32);
        else if(b == 0xC3 && i + 1 < out.size())
        {
            auto const n = static_cast<unsigned char>(out[i + 1]);
            if(n >= 0x80 && n <= 0x9E && n != 0x97)
                out[i + 1] = static_cast<char>(n + 0x20);
            ++i;
        }
    }
    return out;
}

// Whether the character at s[i] belongs to a word, and its length in bytes:
// ASCII letters and digits and non-ASCII letters do; ASCII and Latin-1
// punctuation (¿, ¡, «), × ÷ and general punctuation (… – “) do not.
inline bool word_char_at(std::string_view s, std::size_t i, std::size_t& length) noexcept
{
    std::uint32_t const cp = agentio::detail::decode_utf8(s, i, length);
    if(length == 0)
    {
        length = 1;
        return false;
    }
    if(cp < 0x80)
        return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
    if(cp < 0xC0 || cp == 0xD7 || cp == 0xF7)
        return false;
    if((cp >= 0x2000 && cp <= 0x206F) || (cp >= 0x3000 && cp <= 0x303F))
        return false;
    return true;
}

// The words of `s` as [begin, end) byte ranges.
inline std::vector<std::pair<std::size_t, std::size_t>> word_spans(std::string_view s)
{
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    std::size_t i = 0;
    while(i < s.size())
    {
        std::size_t n = 0;
        if(!word_char_at(s, i, n))
        {
            i += n;
            continue;
        }
        std::size_t const begin = i;
        while(i < s.size() && word_char_at(s, i, n))
            i += n;
        spans.emplace_back(begin, i);
    }
    return spans;
}

// The distinct words of a query, lower case, in order.
inline std::vector<std::string> query_words(std::string_view q)
{
    std::string const lowered = lower_text(q);
    std::vector<std::string> words;
    for(auto [b, e] : word_spans(lowered))
    {
        std::string w = lowered.substr(b, e - b);
        if(std::find(words.begin(), words.end(), w) == words.end())
            words.push_back(std::move(w));
    }
    return words;
}

// Whether `word` (lower case) is a whole word of `text`, ignoring case.
inline bool has_word(std::string_view text, std::string_view word)
{
    std::string const lowered = lower_text(text);
    for(auto [b, e] : word_spans(lowered))
        if(std::string_view(lowered).substr(b, e - b) == word)
            return true;
    return false;
}

// Whether `needle` occurs in `hay`, ignoring case (accents as written).
inline bool contains_ignoring_case(std::string_view hay, std::string_view needle)
{
    return lower_text(hay).find(lower_text(needle)) != std::string::npos;
}

// ================================================================================
// Escaping
// ================================================================================

inline void append_html_escaped(std::string& out, std::string_view s)
{
    for(char c : s)
        switch(c)
        {
        case '&': out.append("&amp;"); break;
        case '<': out.append("&lt;"); break;
        case '>': out.append("&gt;"); break;
        case '"': out.append("&quot;"); break;
        case '\'': out.append("&#x27;"); break;
        default: out.push_back(c);
        }
}

inline std::string html_escaped(std::string_view s)
{
    std::string out;
    append_html_escaped(out, s);
    return out;
}

// `text` HTML-escaped, with each of its words that is one of `words` (lower
// case) wrapped in `open`…`close`: DuckDuckGo's <b>, MediaWiki's searchmatch.
inline std::string highlighted(std::string_view text, std::vector<std::string> const& words, std::string_view open,
    std::string_view close)
{
    std::string const lowered = lower_text(text);
    std::string out;
    std::size_t at = 0;
    for(auto [b, e] : word_spans(lowered))
    {
        append_html_escaped(out, text.substr(at, b - at));
        auto const w = std::string_view(lowered).substr(b, e - b);
        bool const hit = std::find(words.begin(), words.end(), w) != words.end();
        if(hit)
            out.append(open);
        append_html_escaped(out, text.substr(b, e - b));
        if(hit)
            out.append(close);
        at = e;
    }
    append_html_escaped(out, text.substr(at));
    return out;
}

inline void append_percent(std::string& out, unsigned char c)
{
    constexpr char hex[] = "0123456789ABCDEF";
    out.push_back('%');
    out.push_back(hex[c >> 4]);
    out.push_back(hex[c & 15]);
}

// Every byte but the unreserved ones (RFC 3986) percent-encoded, as
// DuckDuckGo writes `uddg`.
inline std::string percent_encoded(std::string_view s)
{
    std::string out;
    for(unsigned char c : s)
        if((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
            c == '.' || c == '~')
            out.push_back(static_cast<char>(c));
        else
            append_percent(out, c);
    return out;
}

// MediaWiki's wfUrlencode: as above, but `;:@$!*(),/~` stay as they are
// (so "Mercurio_(planeta)" keeps its parentheses).
inline std::string mediawiki_encoded(std::string_view s)
{
    std::string out;
    for(unsigned char c : s)
        if((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            std::string_view("-_.~;:@$!*(),/").find(static_cast<char>(c)) != std::string_view::npos)
            out.push_back(static_cast<char>(c));
        else
            append_percent(out, c);
    return out;
}

// A query string or form component decoded: `+` is a space, `%XX` a byte
// (a malformed escape is kept as it is).
inline std::string form_decoded(std::string_view s)
{
    auto const hex = [](char c) -> int {
        if(c >= '0' && c <= '9')
            return c - '0';
        if(c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if(c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    };
    std::string out;
    for(std::size_t i = 0; i < s.size(); ++i)
    {
        if(s[i] == '+')
            out.push_back(' ');
        else if(s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0)
        {
            out.push_back(static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2])));
            i += 2;
        }
        else
            out.push_back(s[i]);
    }
    return out;
}

// The parameters of a query string or form body, in order.
struct web_params
{
    std::vector<std::pair<std::string, std::string>> list;

    void add_from(std::string_view text)
    {
        while(!text.empty())
        {
            auto const amp = text.find('&');
            auto const part = text.substr(0, amp);
            text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
            if(part.empty())
                continue;
            auto const eq = part.find('=');
            list.emplace_back(form_decoded(part.substr(0, eq)),
                eq == std::string_view::npos ? std::string() : form_decoded(part.substr(eq + 1)));
        }
    }

    // The last value given (as PHP and Vapor read a repeated parameter).
    std::optional<std::string> get(std::string_view name) const
    {
        for(auto it = list.rbegin(); it != list.rend(); ++it)
            if(it->first == name)
                return it->second;
        return std::nullopt;
    }

    std::string get_or(std::string_view name, std::string fallback) const
    {
        auto v = get(name);
        return v ? std::move(*v) : std::move(fallback);
    }

    bool has(std::string_view name) const { return get(name).has_value(); }
};

// The host of an absolute URL, lower case ("" when it has none).
inline std::string host_of(std::string_view url)
{
    auto const scheme = url.find("://");
    if(scheme == std::string_view::npos)
        return {};
    auto rest = url.substr(scheme + 3);
    rest = rest.substr(0, rest.find_first_of("/?#"));
    if(auto const at = rest.rfind('@'); at != std::string_view::npos)
        rest = rest.substr(at + 1);
    if(!rest.empty() && rest.front() != '[')
        rest = rest.substr(0, rest.find(':'));
    return lower_text(rest);
}

// Whether `host` is `domain` or one of its subdomains.
inline bool host_in_domain(std::string_view host, std::string_view domain)
{
    std::string const d = lower_text(domain);
    if(host == d)
        return true;
    return host.size() > d.size() && host.ends_with(d) && host[host.size() - d.size() - 1] == '.';
}

// The text of a URL after its scheme: what DuckDuckGo shows as `result__url`.
inline std::string_view without_scheme(std::string_view url)
{
    auto const scheme = url.find("://");
    return scheme == std::string_view::npos ? url : url.substr(scheme + 3);
}

// ================================================================================
// Numbers and dates
// ================================================================================

// Rounded to `decimals` and written with exactly that many (as Open-Meteo
// writes 20.0): never "-0.0".
inline std::string fixed(double v, int decimals)
{
    double const scale = std::pow(10.0, decimals);
    double r = std::round(v * scale) / scale;
    if(r == 0.0)
        r = 0.0;
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, r);
    return buf;
}

inline double rounded(double v, int decimals)
{
    double const scale = std::pow(10.0, decimals);
    double const r = std::round(v * scale) / scale;
    return r == 0.0 ? 0.0 : r;
}

// A float as Swift prints one: shortest form, with ".0" when whole (91 → "91.0").
inline std::string swift_float(double v)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    std::string s = buf;
    if(s.find_first_of(".eEn") == std::string::npos)
        s.append(".0");
    return s;
}

// A float as Python's json writes one: shortest round trip, 1.0 for a whole one.
inline std::string python_float(double v)
{
    char buf[48];
    auto const r = std::to_chars(buf, buf + sizeof buf, v);
    std::string s(buf, r.ptr);
    if(s.find_first_of(".en") == std::string::npos)
        s.append(".0");
    return s;
}

// `YYYY-MM-DD` as a day count; nothing if it is not a valid date.
inline std::optional<std::chrono::sys_days> parse_day(std::string_view s)
{
    if(s.size() != 10 || s[4] != '-' || s[7] != '-')
        return std::nullopt;
    int y = 0;
    unsigned m = 0, d = 0;
    for(std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u})
        if(s[i] < '0' || s[i] > '9')
            return std::nullopt;
    y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    m = static_cast<unsigned>((s[5] - '0') * 10 + (s[6] - '0'));
    d = static_cast<unsigned>((s[8] - '0') * 10 + (s[9] - '0'));
    std::chrono::year_month_day const ymd{std::chrono::year(y), std::chrono::month(m), std::chrono::day(d)};
    if(!ymd.ok())
        return std::nullopt;
    return std::chrono::sys_days(ymd);
}

inline std::string day_text(std::chrono::sys_days day)
{
    std::chrono::year_month_day const ymd(day);
    char buf[48]; // room for any int and unsigned: GCC checks the format against the types' ranges
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
        static_cast<unsigned>(ymd.day()));
    return buf;
}

// 1 on January 1st.
inline int day_of_year(std::chrono::sys_days day)
{
    std::chrono::year_month_day const ymd(day);
    std::chrono::sys_days const first{ymd.year() / std::chrono::January / 1};
    return static_cast<int>((day - first).count()) + 1;
}

} // namespace agentio::testing::detail

#endif
