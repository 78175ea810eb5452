// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "portfolio/generator/text.hpp"

#include <agentio/text.hpp>

namespace portfolio::generator {

std::string fecha_larga(Date d)
{
    std::chrono::year_month_day const t{d};
    return cat(static_cast<int>(static_cast<unsigned>(t.day())), " de ", kMeses[static_cast<unsigned>(t.month()) - 1],
        " de ", static_cast<int>(t.year()));
}
std::string mes_anio(Date d)
{
    std::chrono::year_month_day const t{d};
    return cat(kMeses[static_cast<unsigned>(t.month()) - 1], " de ", static_cast<int>(t.year()));
}
std::string group_thousands(i64 v)
{
    std::string digits = std::to_string(v < 0 ? -v : v);
    std::string out;
    int const len = static_cast<int>(digits.size());
    for(int i = 0; i < len; ++i)
    {
        if(i > 0 && (len - i) % 3 == 0)
            out.push_back('.');
        out.push_back(digits[static_cast<std::size_t>(i)]);
    }
    return v < 0 ? "-" + out : out;
}
/// Spanish euro formatting: "1.250.000 €" (rounded to euros) or "1.250.000,50 €".
std::string eur(i64 cents, bool with_cents)
{
    if(!with_cents)
    {
        i64 const euros = cents >= 0 ? (cents + 50) / 100 : -((-cents + 50) / 100);
        return group_thousands(euros) + " €";
    }
    i64 const a = cents < 0 ? -cents : cents;
    std::string s = group_thousands(a / 100);
    i64 const c = a % 100;
    s += ',';
    s += static_cast<char>('0' + c / 10);
    s += static_cast<char>('0' + c % 10);
    return (cents < 0 ? "-" : "") + s + " €";
}
/// "12,5" style percentage number (one decimal, comma).
std::string num1(double x)
{
    i64 const t = static_cast<i64>(std::llround(x * 10.0));
    i64 const a = t < 0 ? -t : t;
    std::string s = t < 0 ? "-" : "";
    s += group_thousands(a / 10);
    s += ',';
    s += static_cast<char>('0' + a % 10);
    return s;
}
std::string lower_first(std::string_view s)
{
    std::string r(s);
    if(!r.empty() && r[0] >= 'A' && r[0] <= 'Z')
        r[0] = static_cast<char>(r[0] - 'A' + 'a');
    return r;
}
std::string upper_first(std::string_view s)
{
    std::string r(s);
    if(!r.empty() && r[0] >= 'a' && r[0] <= 'z')
        r[0] = static_cast<char>(r[0] - 'a' + 'A');
    return r;
}
/// ASCII folding of the Spanish accented letters (used for file names and sort keys).
std::string fold_ascii(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for(std::size_t i = 0; i < s.size(); ++i)
    {
        auto const c = static_cast<unsigned char>(s[i]);
        if(c < 0x80)
        {
            out.push_back(static_cast<char>(c));
            continue;
        }
        if(c == 0xC3 && i + 1 < s.size())
        {
            auto const d = static_cast<unsigned char>(s[i + 1]);
            char r = 0;
            switch(d)
            {
            case 0xA1:
            case 0xA0:
            case 0xA4: r = 'a'; break;
            case 0xA9:
            case 0xA8:
            case 0xAB: r = 'e'; break;
            case 0xAD:
            case 0xAC:
            case 0xAF: r = 'i'; break;
            case 0xB3:
            case 0xB2:
            case 0xB6: r = 'o'; break;
            case 0xBA:
            case 0xB9:
            case 0xBC: r = 'u'; break;
            case 0xB1: r = 'n'; break;
            case 0xA7: r = 'c'; break;
            case 0x81:
            case 0x80: r = 'A'; break;
            case 0x89:
            case 0x88: r = 'E'; break;
            case 0x8D:
            case 0x8C: r = 'I'; break;
            case 0x93:
            case 0x92: r = 'O'; break;
            case 0x9A:
            case 0x99:
            case 0x9C: r = 'U'; break;
            case 0x91: r = 'N'; break;
            default: break;
            }
            ++i;
            if(r)
                out.push_back(r);
            continue;
        }
        // other multi-byte sequences: skip continuation bytes
        while(i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xC0) == 0x80)
            ++i;
    }
    return out;
}
std::string slug(std::string_view s, int max_words)
{
    std::string const f = fold_ascii(s);
    std::string out;
    int words = 0;
    bool in_word = false;
    for(char c : f)
    {
        bool const alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if(alnum)
        {
            if(!in_word)
            {
                if(words == max_words)
                    break;
                if(!out.empty())
                    out.push_back('_');
                ++words;
                in_word = true;
            }
            out.push_back(c);
        }
        else
        {
            in_word = false;
        }
    }
    return out;
}
std::string sort_key(std::string_view s)
{
    std::string k = fold_ascii(s);
    for(char& c : k)
        if(c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return k;
}
std::string truncate_utf8(std::string_view s, std::size_t max_bytes)
{
    if(s.size() <= max_bytes)
        return std::string(s);
    std::string r(s.substr(0, agentio::utf8_byte_prefix(s, max_bytes)));
    while(!r.empty() && r.back() == ' ')
        r.pop_back();
    return r;
}
/// Appends a final period unless the text already ends with one ("S.L.").
std::string with_dot(std::string s)
{
    if(s.empty() || s.back() != '.')
        s.push_back('.');
    return s;
}
/// Cut at a word boundary with an ellipsis when longer than max_bytes.
std::string short_name(std::string_view s, std::size_t max_bytes)
{
    if(s.size() <= max_bytes)
        return std::string(s);
    std::string t = truncate_utf8(s, max_bytes);
    auto const sp = t.rfind(' ');
    if(sp != std::string::npos && sp > max_bytes / 2)
        t.resize(sp);
    static constexpr std::string_view drop[] = {" de", " del", " la", " el", " en", " para", " y", " a", " los", " las",
        " con"};
    for(bool again = true; again;)
    {
        again = false;
        for(auto d : drop)
            if(t.size() > d.size() && t.compare(t.size() - d.size(), d.size(), d) == 0)
            {
                t.resize(t.size() - d.size());
                again = true;
            }
    }
    return t + "…";
}
std::string join(std::vector<std::string> const& v, std::string_view sep, std::string_view last_sep)
{
    std::string r;
    for(std::size_t i = 0; i < v.size(); ++i)
    {
        if(i > 0)
            r += (i + 1 == v.size()) ? last_sep : sep;
        r += v[i];
    }
    return r;
}
int count_words(std::string_view s)
{
    int n = 0;
    bool in = false;
    for(char c : s)
    {
        bool const sp = c == ' ' || c == '\n' || c == '\t';
        if(!sp && !in)
            ++n;
        in = !sp;
    }
    return n;
}
std::string pad(int v, int width)
{
    std::string s = std::to_string(v);
    while(static_cast<int>(s.size()) < width)
        s = "0" + s;
    return s;
}

} // namespace portfolio::generator
