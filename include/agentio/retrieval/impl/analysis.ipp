//
// agentio/retrieval/impl/analysis.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_RETRIEVAL_IMPL_ANALYSIS_IPP
#define AGENTIO_RETRIEVAL_IMPL_ANALYSIS_IPP

#include <agentio/retrieval/analysis.hpp>
#include <agentio/text.hpp>

#include <algorithm>
#include <cstdint>

namespace agentio::retrieval {

namespace detail {

inline bool is_word_byte(char c) noexcept
{
    auto const u = static_cast<unsigned char>(c);
    return (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || u >= 0x80;
}

inline bool is_number(std::string_view w) noexcept
{
    return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace detail

AGENTIO_DECL std::string fold(std::string_view utf8)
{
    return agentio::fold_text(utf8);
}

namespace detail {

// Splits text already lowered or folded: runs of ASCII letters and digits and
// of non-ASCII bytes; the Latin-1 punctuation lower() and fold() turn into spaces.
inline std::vector<std::string> split_words(std::string_view s)
{
    std::vector<std::string> out;
    std::size_t i = 0;
    while(i < s.size())
    {
        while(i < s.size() && !is_word_byte(s[i]))
            ++i;
        auto const start = i;
        while(i < s.size() && is_word_byte(s[i]))
            ++i;
        if(i > start)
            out.emplace_back(s.substr(start, i - start));
    }
    return out;
}

} // namespace detail

AGENTIO_DECL std::vector<std::string> words(std::string_view text)
{
    return detail::split_words(fold(text));
}

AGENTIO_DECL std::string lower(std::string_view utf8)
{
    std::string out;
    out.reserve(utf8.size());
    for(std::size_t i = 0; i < utf8.size();)
    {
        std::size_t n = 0;
        auto cp = agentio::detail::decode_utf8(utf8, i, n);
        if(n == 0)
        {
            out += ' ';
            ++i;
            continue;
        }
        if(cp < 0x80)
            out += (cp >= 'A' && cp <= 'Z') ? static_cast<char>(cp - 'A' + 'a') : static_cast<char>(cp);
        else if(cp < 0xC0 && cp != 0xAA && cp != 0xBA)
            out += ' '; // Latin-1 punctuation and symbols, as fold() treats them
        else
        {
            if(cp >= 0xC0 && cp <= 0xDE && cp != 0xD7)
                cp += 0x20; // Latin-1 capitals: À..Þ → à..þ
            // Re-encoded: two bytes for every code point below U+0800, as decoded otherwise.
            if(cp < 0x800)
            {
                out += static_cast<char>(0xC0 | (cp >> 6));
                out += static_cast<char>(0x80 | (cp & 0x3F));
            }
            else
                out.append(utf8.substr(i, n));
        }
        i += n;
    }
    return out;
}

AGENTIO_DECL analyzer::analyzer(analyzer_options options)
    : min_length_(options.min_length)
    , stem_(std::move(options.stem))
{
    // Stop words are compared folded, whatever form the application wrote them in.
    for(auto const& w : options.stop_words)
        for(auto& f : words(w))
            stop_.insert(std::move(f));
}

AGENTIO_DECL std::vector<std::string> analyzer::terms(std::string_view text) const
{
    // With a stemmer, words are cut from the text in lower case but with
    // their accents (Snowball's rules need them: "-ación"), and folded after.
    auto all = stem_ ? detail::split_words(lower(text)) : words(text);
    std::vector<std::string> out;
    out.reserve(all.size());
    for(auto& w : all)
    {
        auto folded = stem_ ? fold(w) : w;
        if(stop_.contains(folded))
            continue;
        bool const number = detail::is_number(folded);
        if(!number && folded.size() < min_length_)
            continue;
        if(stem_ && !number)
        {
            auto stemmed = stem_(w);
            if(!stemmed.empty())
                folded = fold(stemmed);
        }
        out.push_back(std::move(folded));
    }
    return out;
}

AGENTIO_DECL std::string analyzer::indexed_text(std::string_view text) const
{
    std::string out;
    for(auto const& t : terms(text))
    {
        if(!out.empty())
            out += ' ';
        out += t;
    }
    return out;
}

AGENTIO_DECL std::string fts5_any_of(std::span<std::string const> terms)
{
    std::vector<std::string_view> unique(terms.begin(), terms.end());
    std::sort(unique.begin(), unique.end());
    unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
    std::string out;
    for(auto t : unique)
    {
        if(t.empty())
            continue;
        if(!out.empty())
            out += " OR ";
        out += '"';
        for(char c : t)
        {
            if(c == '"')
                out += '"'; // FTS5 escapes a quote inside a string by doubling it
            out += c;
        }
        out += '"';
    }
    return out;
}

namespace detail {

inline std::string_view trim_blanks(std::string_view s) noexcept
{
    auto const blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while(!s.empty() && blank(s.front()))
        s.remove_prefix(1);
    while(!s.empty() && blank(s.back()))
        s.remove_suffix(1);
    return s;
}

// Where to cut `s` (longer than `max`) at or before `max`: after a sentence's
// end, else at a space, else at `max` moved back to a UTF-8 boundary.
inline std::size_t cut_point(std::string_view s, std::size_t max) noexcept
{
    auto const window = s.substr(0, max);
    for(auto i = window.size(); i > max / 2; --i)
        if((window[i - 1] == '.' || window[i - 1] == ';' || window[i - 1] == ':') && i < s.size() && s[i] == ' ')
            return i;
    if(auto const space = window.rfind(' '); space != std::string_view::npos && space > max / 2)
        return space;
    auto i = max;
    while(i > 1 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80)
        --i;
    return i;
}

} // namespace detail

AGENTIO_DECL std::vector<std::string_view> split_passages(std::string_view text, passage_options const& options)
{
    auto const max = std::max<std::size_t>(options.max_chars, 16);
    std::vector<std::string_view> out;
    char const* open = nullptr; // the passage being gathered: [open, end)
    char const* end = nullptr;
    auto const flush = [&] {
        if(open)
            out.push_back(detail::trim_blanks(std::string_view(open, static_cast<std::size_t>(end - open))));
        open = end = nullptr;
    };
    std::size_t pos = 0;
    while(pos < text.size())
    {
        auto nl = text.find('\n', pos);
        if(nl == std::string_view::npos)
            nl = text.size();
        auto line = detail::trim_blanks(text.substr(pos, nl - pos));
        pos = nl + 1;
        if(line.empty())
            continue;
        // Joined to the open passage while both stay within the limit.
        if(open && static_cast<std::size_t>(line.data() + line.size() - open) <= max &&
            static_cast<std::size_t>(end - open) < options.min_chars)
        {
            end = line.data() + line.size();
            continue;
        }
        flush(); // long enough, or too long with this line: it stands alone
        while(line.size() > max)
        {
            auto const cut = detail::cut_point(line, max);
            out.push_back(detail::trim_blanks(line.substr(0, cut)));
            line = detail::trim_blanks(line.substr(cut));
        }
        if(!line.empty())
        {
            open = line.data();
            end = line.data() + line.size();
        }
    }
    flush();
    std::erase_if(out, [](std::string_view p) { return p.empty(); });
    return out;
}

} // namespace agentio::retrieval

#endif
