//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_AGENT_IMPL_STRATEGY_IPP
#define AGENTIO_AGENT_IMPL_STRATEGY_IPP

#include <agentio/agent/strategy.hpp>
#include <agentio/text.hpp>

#include <algorithm>

namespace agentio::agent {

namespace detail {

// What a keyword and a request are compared as: lower case, Latin-1 accents
// gone, ¿ ¡ « » as separators (as retrieval compares words).
inline std::string fold_words(std::string_view text)
{
    return agentio::fold_text(text);
}

inline bool word_char(char c) noexcept
{
    unsigned char const u = static_cast<unsigned char>(c);
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || u >= 0x80;
}

// How many times `phrase` (folded) stands in `text` (folded) as whole words;
// a phrase of punctuation (",") counts wherever it stands.
inline unsigned count_phrase(std::string_view text, std::string_view phrase)
{
    if(phrase.empty())
        return 0;
    bool const wordy = std::any_of(phrase.begin(), phrase.end(), word_char);
    unsigned n = 0;
    for(std::size_t at = text.find(phrase); at != std::string_view::npos; at = text.find(phrase, at + 1))
    {
        // A phrase that begins or ends with punctuation or a space is its own boundary there.
        bool const starts = at == 0 || !word_char(text[at - 1]) || !word_char(phrase.front());
        bool const ends = at + phrase.size() == text.size() || !word_char(text[at + phrase.size()]) ||
            !word_char(phrase.back());
        if(!wordy || (starts && ends))
            ++n;
    }
    return n;
}

// How many words of `text` (folded) stand outside every occurrence of `phrases`;
// nothing when no phrase occurs at all.
inline std::optional<std::size_t> words_besides(std::string text, std::vector<std::string> const& phrases)
{
    // Longest first: "muchas gracias" is one phrase, not "gracias" and another word.
    std::vector<std::string> folded;
    for(auto const& p : phrases)
        if(auto f = fold_words(p); !f.empty())
            folded.push_back(std::move(f));
    std::stable_sort(folded.begin(), folded.end(),
        [](std::string const& a, std::string const& b) { return a.size() > b.size(); });
    bool found = false;
    for(auto const& phrase : folded)
    {
        for(std::size_t at = text.find(phrase); at != std::string::npos; at = text.find(phrase, at + 1))
        {
            bool const starts = at == 0 || !word_char(text[at - 1]);
            bool const ends = at + phrase.size() == text.size() || !word_char(text[at + phrase.size()]);
            if(!starts || !ends)
                continue;
            found = true;
            std::fill_n(text.begin() + static_cast<std::ptrdiff_t>(at), phrase.size(), ' ');
        }
    }
    if(!found)
        return std::nullopt;
    std::size_t words = 0;
    for(std::size_t i = 0; i < text.size(); ++i)
        if(word_char(text[i]) && (i == 0 || !word_char(text[i - 1])))
            ++words;
    return words;
}

} // namespace detail

AGENTIO_DECL strategy choose_by_keywords(std::string_view request, keyword_rules const& rules)
{
    auto const text = detail::fold_words(request);
    unsigned plan = 0;
    for(auto const& w : rules.plan_execute)
        plan += detail::count_phrase(text, detail::fold_words(w));
    for(auto const& w : rules.clause_separators)
        plan += detail::count_phrase(text, detail::fold_words(w));
    if(plan >= rules.plan_threshold)
        return strategy::plan_execute;
    for(auto const& w : rules.react)
        if(detail::count_phrase(text, detail::fold_words(w)) > 0)
            return strategy::react;
    if(auto const others = detail::words_besides(text, rules.chat); others && *others <= rules.chat_other_words)
        return strategy::chat;
    return rules.otherwise;
}

AGENTIO_DECL std::optional<strategy> parse_label(std::string_view reply)
{
    auto const is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while(!reply.empty() && is_space(reply.front()))
        reply.remove_prefix(1);
    while(!reply.empty() && is_space(reply.back()))
        reply.remove_suffix(1);
    if(!reply.empty() && reply.back() == '.')
        reply.remove_suffix(1);
    for(char q : {'"', '\'', '`'})
        if(reply.size() >= 2 && reply.front() == q && reply.back() == q)
            reply = reply.substr(1, reply.size() - 2);
    std::string label(reply);
    for(auto& c : label)
        if(c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return parse_strategy(label);
}

} // namespace agentio::agent

#endif
