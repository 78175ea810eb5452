//
// agentio/testing/detail/fake_web_mediawiki.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The MediaWiki action API of a Wikipedia (docs/notes/web-tools-plan.md
// section 3): `list=search` and `prop=extracts|info|pageprops` in both
// format versions, errors inside a 200 with `MediaWiki-API-Error`, warnings,
// and Wikimedia's User-Agent policy.
//

#ifndef AGENTIO_TESTING_DETAIL_FAKE_WEB_MEDIAWIKI_HPP
#define AGENTIO_TESTING_DETAIL_FAKE_WEB_MEDIAWIKI_HPP

#include <agentio/json_text.hpp>
#include <agentio/testing/detail/fake_web_text.hpp>
#include <agentio/testing/detail/fake_web_world.hpp>

#include <boost/beast/http/status.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::testing::detail {

// ================================================================================
// Wikimedia's edge: the error page, the User-Agent policy
// ================================================================================

// The page Wikimedia's caches answer errors with.
inline std::string wikimedia_error_page(unsigned status, std::string_view message_html)
{
    std::string const reason(beast::http::obsolete_reason(static_cast<beast::http::status>(status)));
    std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<meta charset=\"utf-8\">\n<title>Wikimedia Error</title>\n"
                       "<style>\n* { margin: 0; padding: 0; }\nbody { background: #fff; font: 15px/1.6 sans-serif; "
                       "color: #333; }\n.content { margin: 7% auto 0; padding: 2em 1em 1em; max-width: 640px; }\n"
                       "</style>\n<div class=\"content\" role=\"main\">\n"
                       "<a href=\"https://www.wikimedia.org\"><img "
                       "src=\"https://www.wikimedia.org/static/images/wmf-logo.png\" width=\"135\" height=\"101\" "
                       "alt=\"Wikimedia\"></a>\n<h1>Error</h1>\n<p>";
    page.append(message_html);
    page.append("</p>\n</div>\n<div class=\"footer\"><p>If you report this error to the Wikimedia System "
                "Administrators, please include the details below.</p><p class=\"text-muted\"><code>Request served "
                "via cp3066 cp3066, Varnish XID 804130118<br>Upstream caches: cp3066 int<br>Error: ");
    page.append(std::to_string(status)).append(", ").append(reason);
    page.append(" at Tue, 01 Dec 2026 10:15:00 GMT</code></p>\n</div>\n</html>\n");
    return page;
}

// What Wikimedia says with each status the faults send.
inline std::string wikimedia_message(unsigned status)
{
    if(status == 429)
        return "Too many requests. Please respect our robot policy https://w.wiki/4wJS and reduce your request rate.";
    if(status >= 500)
        return "Our servers are currently under maintenance or experiencing a technical problem. Please <a href=\"\" "
               "title=\"Reload this page\" onclick=\"window.location.reload(false); return false\">try again</a> in "
               "a few minutes.";
    return std::to_string(status) + " " +
        std::string(beast::http::obsolete_reason(static_cast<beast::http::status>(status)));
}

// Whether a User-Agent has a contact in parentheses, as the policy asks
// (`Bot/1.0 (https://example.org/bot; bot@example.org) lib/2.0`): a URL, an
// e-mail, a wiki user page or a domain. A browser's "(X11; Linux x86_64)" is none.
inline bool has_contact(std::string_view ua)
{
    std::size_t at = 0;
    while((at = ua.find('(', at)) != std::string_view::npos)
    {
        auto const close = ua.find(')', at);
        if(close == std::string_view::npos)
            return false;
        std::string const inside = lower_text(ua.substr(at + 1, close - at - 1));
        if(inside.find('@') != std::string::npos || inside.find("://") != std::string::npos ||
            inside.find("www.") != std::string::npos || inside.find("user:") != std::string::npos)
            return true;
        for(std::size_t i = 1; i + 1 < inside.size(); ++i)
            if(inside[i] == '.' && inside[i - 1] >= 'a' && inside[i - 1] <= 'z' && inside[i + 1] >= 'a' &&
                inside[i + 1] <= 'z')
                return true;
        at = close + 1;
    }
    return false;
}

// The 403 for a request without a User-Agent that names its operator.
inline std::optional<web_answer> mediawiki_refusal(std::string_view user_agent, bool present)
{
    if(present && has_contact(user_agent))
        return std::nullopt;
    return html_answer(403,
        wikimedia_error_page(403,
            "Please set a user-agent and respect our robot policy https://w.wiki/4wJS. See also "
            "https://phabricator.wikimedia.org/T400119."));
}

// ================================================================================
// The action API
// ================================================================================

struct mediawiki_call
{
    std::string lang;
    bool v2 = false;
    web_params const* params = nullptr;
    std::chrono::sys_days today{};
};

inline std::string mediawiki_docref(std::string_view lang)
{
    return "See https://" + std::string(lang) +
        ".wikipedia.org/w/api.php for API usage. Subscribe to the mediawiki-api-announce mailing list at "
        "&lt;https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/&gt; for notice "
        "of API deprecations and breaking changes.";
}

// An API error: 200, the `error` body, the header naming its code.
inline web_answer mediawiki_error(mediawiki_call const& c, std::string_view code, std::string_view info,
    json::object extra = {})
{
    json::object error;
    error["code"] = code;
    error["info"] = info;
    for(auto& kv : extra)
        error[kv.key()] = std::move(kv.value());
    error[c.v2 ? "docref" : "*"] = mediawiki_docref(c.lang);
    json::object body;
    body["error"] = std::move(error);
    body["servedby"] = "mw-api-fake";
    web_answer a = json_answer(200, to_json_text(body));
    a.headers.emplace_back("MediaWiki-API-Error", std::string(code));
    return a;
}

// A flag as the format version writes it: true, or "".
inline json::value mw_flag(bool v2)
{
    return v2 ? json::value(true) : json::value("");
}

// A warning text in the format version's shape.
inline json::object mw_warning(bool v2, std::string text)
{
    json::object o;
    o[v2 ? "warnings" : "*"] = std::move(text);
    return o;
}

inline std::vector<std::string> split_bar(std::string_view s)
{
    std::vector<std::string> out;
    while(true)
    {
        auto const bar = s.find('|');
        out.emplace_back(s.substr(0, bar));
        if(bar == std::string_view::npos)
            break;
        s = s.substr(bar + 1);
    }
    return out;
}

inline bool lists(std::vector<std::string> const& values, std::string_view name)
{
    return std::find(values.begin(), values.end(), name) != values.end();
}

// A whole number of a parameter, or nothing when it is not one.
inline std::optional<std::int64_t> mw_integer(std::string_view s)
{
    if(s.empty() || s.size() > 12)
        return std::nullopt;
    std::int64_t n = 0;
    bool negative = s[0] == '-';
    for(std::size_t i = negative ? 1 : 0; i < s.size(); ++i)
    {
        if(s[i] < '0' || s[i] > '9')
            return std::nullopt;
        n = n * 10 + (s[i] - '0');
    }
    if(negative && s.size() == 1)
        return std::nullopt;
    return negative ? -n : n;
}

inline std::int64_t page_id_of(wiki_page const& p)
{
    return p.pageid != 0 ? p.pageid : 10'000 + static_cast<std::int64_t>(web_hash(p.title) % 9'000'000);
}

// MediaWiki's title normalization: underscores are spaces, spaces collapse,
// the first letter is a capital.
inline std::string normalized_title(std::string_view t)
{
    std::string out;
    for(char c : t)
    {
        char const ch = c == '_' ? ' ' : c;
        if(ch == ' ' && (out.empty() || out.back() == ' '))
            continue;
        out.push_back(ch);
    }
    while(!out.empty() && out.back() == ' ')
        out.pop_back();
    if(!out.empty() && out[0] >= 'a' && out[0] <= 'z')
        out[0] = static_cast<char>(out[0] - 32);
    else if(out.size() > 1 && static_cast<unsigned char>(out[0]) == 0xC3)
    {
        auto const n = static_cast<unsigned char>(out[1]);
        if(n >= 0xA0 && n <= 0xBE && n != 0xB7)
            out[1] = static_cast<char>(n - 0x20);
    }
    return out;
}

inline std::string page_url(std::string_view lang, std::string_view title)
{
    std::string t(title);
    std::replace(t.begin(), t.end(), ' ', '_');
    return "https://" + std::string(lang) + ".wikipedia.org/wiki/" + mediawiki_encoded(t);
}

// The extract's sentences: split at ". ", each keeping its period.
inline std::vector<std::string_view> sentences_of(std::string_view text)
{
    std::vector<std::string_view> out;
    while(!text.empty())
    {
        auto const end = text.find(". ");
        if(end == std::string_view::npos)
        {
            out.push_back(text);
            break;
        }
        out.push_back(text.substr(0, end + 1));
        text = text.substr(end + 2);
        while(!text.empty() && text.front() == ' ')
            text.remove_prefix(1);
    }
    return out;
}

// A page's score for a search: how many query words it holds, and how many of them in its title.
struct wiki_hit
{
    wiki_page const* page = nullptr;
    std::size_t words = 0;
    std::size_t title_words = 0;
    std::size_t order = 0;
};

inline std::vector<wiki_hit> search_pages(std::vector<wiki_page> const* pages, std::string_view query,
    std::string_view what)
{
    std::vector<wiki_hit> hits;
    if(!pages)
        return hits;
    auto const words = query_words(query);
    for(std::size_t i = 0; i < pages->size(); ++i)
    {
        auto const& p = (*pages)[i];
        wiki_hit h{&p, 0, 0, i};
        if(what == "nearmatch")
        {
            if(lower_text(p.title) == lower_text(normalized_title(query)))
                hits.push_back({&p, 1, 1, i});
            continue;
        }
        for(auto const& w : words)
        {
            bool const in_title = has_word(p.title, w);
            bool const in_text = what != "title" && has_word(p.extract, w);
            h.title_words += in_title;
            h.words += in_title || in_text;
        }
        if(h.words > 0)
            hits.push_back(h);
    }
    std::stable_sort(hits.begin(), hits.end(), [](wiki_hit const& a, wiki_hit const& b) {
        if(a.words != b.words)
            return a.words > b.words;
        return a.title_words > b.title_words;
    });
    return hits;
}

// A search snippet: from the sentence of the first match, about 160 bytes, matches in searchmatch spans.
inline std::string search_snippet(std::string_view extract, std::vector<std::string> const& words)
{
    auto const sentences = sentences_of(extract);
    std::size_t start = 0;
    for(auto s : sentences)
    {
        bool hit = false;
        for(auto const& w : words)
            hit = hit || has_word(s, w);
        if(hit)
        {
            start = static_cast<std::size_t>(s.data() - extract.data());
            break;
        }
    }
    std::string_view rest = extract.substr(start);
    if(rest.size() > 160)
    {
        auto cut = rest.rfind(' ', 160);
        rest = rest.substr(0, cut == std::string_view::npos || cut < 60 ? agentio::detail::utf8_floor(rest, 160) : cut);
    }
    return highlighted(rest, words, "<span class=\"searchmatch\">", "</span>");
}

// `list=search`: fills `query` (searchinfo, search) and `top` (continue); an error answer otherwise.
inline std::optional<web_answer> run_search(mediawiki_call const& c, web_world_model const& w, json::object& query,
    json::object& top, json::object& warnings)
{
    web_params const& p = *c.params;
    std::string const q = p.get_or("srsearch", "");
    if(q.empty())
        return mediawiki_error(c, "missingparam", "The \"srsearch\" parameter must be set.");
    std::int64_t limit = 10;
    if(auto v = p.get("srlimit"))
    {
        if(*v == "max")
            limit = 500;
        else
        {
            auto const n = mw_integer(*v);
            if(!n)
                return mediawiki_error(c, "badinteger",
                    "Invalid value \"" + *v + "\" for integer parameter \"srlimit\".");
            if(*n < 1)
                return mediawiki_error(c, "outofrange",
                    "Invalid value \"" + *v + "\" for integer parameter \"srlimit\": must be at least 1.");
            limit = *n;
            if(limit > 500)
            {
                limit = 500;
                warnings["search"] = mw_warning(c.v2, "srlimit may not be over 500 (set to 500) for users.");
            }
        }
    }
    std::int64_t offset = 0;
    if(auto v = p.get("sroffset"))
    {
        auto const n = mw_integer(*v);
        if(!n || *n < 0)
            return mediawiki_error(c, "badinteger", "Invalid value \"" + *v + "\" for integer parameter \"sroffset\".");
        offset = *n;
    }
    std::string const what = p.get_or("srwhat", "text");
    if(what != "text" && what != "title" && what != "nearmatch")
        return mediawiki_error(c, "badvalue", "Unrecognized value for parameter \"srwhat\": " + what + ".");
    auto const props = split_bar(p.get_or("srprop", "size|wordcount|timestamp|snippet"));
    auto const infos = split_bar(p.get_or("srinfo", "totalhits|suggestion|rewrittenquery"));

    auto const hits = search_pages(w.pages_of(c.lang), q, what);
    auto const words = query_words(q);
    json::array list;
    for(std::size_t i = static_cast<std::size_t>(offset);
        i < hits.size() && list.size() < static_cast<std::size_t>(limit); ++i)
    {
        wiki_page const& page = *hits[i].page;
        json::object o;
        o["ns"] = 0;
        o["title"] = page.title;
        o["pageid"] = page_id_of(page);
        if(lists(props, "size"))
            o["size"] = static_cast<std::int64_t>(page.extract.size() * 9 + 1200);
        if(lists(props, "wordcount"))
            o["wordcount"] = static_cast<std::int64_t>(word_spans(page.extract).size() * 9 + 150);
        if(lists(props, "snippet"))
            o["snippet"] = search_snippet(page.extract, words);
        if(lists(props, "titlesnippet"))
            o["titlesnippet"] = highlighted(page.title, words, "<span class=\"searchmatch\">", "</span>");
        if(lists(props, "timestamp"))
            o["timestamp"] = day_text(c.today - std::chrono::days(1 + web_hash(page.title) % 40)) + "T08:12:44Z";
        list.push_back(std::move(o));
    }
    if(lists(infos, "totalhits"))
    {
        json::object info;
        info["totalhits"] = static_cast<std::int64_t>(hits.size());
        query["searchinfo"] = std::move(info);
    }
    query["search"] = std::move(list);
    if(static_cast<std::size_t>(offset + limit) < hits.size())
    {
        json::object cont;
        cont["sroffset"] = offset + limit;
        cont["continue"] = "-||";
        top["continue"] = std::move(cont);
    }
    return std::nullopt;
}

// `prop=…&titles=…`: fills `query` (normalized, redirects, pages); an error answer otherwise.
inline std::optional<web_answer> run_titles(mediawiki_call const& c, web_world_model const& w,
    std::vector<std::string> const& props, json::object& query, json::object& warnings)
{
    web_params const& p = *c.params;
    bool const extracts = lists(props, "extracts"), info = lists(props, "info"), pageprops = lists(props, "pageprops");

    std::int64_t sentences = 0; // 0: the whole extract
    if(extracts)
        if(auto v = p.get("exsentences"))
        {
            auto const n = mw_integer(*v);
            if(!n)
                return mediawiki_error(c, "badinteger",
                    "Invalid value \"" + *v + "\" for integer parameter \"exsentences\".");
            if(*n < 1 || *n > 10)
                return mediawiki_error(c, "outofrange",
                    "Invalid value \"" + *v + "\" for integer parameter \"exsentences\": must be between 1 and 10.");
            sentences = *n;
        }
    std::int64_t chars = 0;
    if(extracts)
        if(auto v = p.get("exchars"))
        {
            auto const n = mw_integer(*v);
            if(!n || *n < 1 || *n > 1200)
                return mediawiki_error(c, "outofrange",
                    "Invalid value \"" + *v + "\" for integer parameter \"exchars\": must be between 1 and 1200.");
            chars = *n;
        }
    bool const plain = p.has("explaintext");
    bool const follow = p.has("redirects");
    bool const urls = info && lists(split_bar(p.get_or("inprop", "")), "url");
    bool disambiguation_asked = true;
    if(auto v = p.get("ppprop"))
        disambiguation_asked = lists(split_bar(*v), "disambiguation");

    std::vector<wiki_page> const* pages = w.pages_of(c.lang);
    auto const find_title = [&](std::string_view t) -> wiki_page const* {
        if(pages)
            for(auto const& pg : *pages)
                if(pg.title == t)
                    return &pg;
        return nullptr;
    };
    auto const find_redirect = [&](std::string_view t) -> wiki_page const* {
        if(pages)
            for(auto const& pg : *pages)
                if(std::find(pg.redirects.begin(), pg.redirects.end(), t) != pg.redirects.end())
                    return &pg;
        return nullptr;
    };

    json::array normalized, redirects, out_pages;
    json::object out_pages_v1;
    std::vector<std::string> seen;
    std::int64_t missing_id = 0;
    bool extract_given = false;
    bool extract_limited = false;
    for(auto const& asked : split_bar(p.get_or("titles", "")))
    {
        std::string const t = normalized_title(asked);
        if(!asked.empty() && t != asked)
        {
            json::object n;
            if(c.v2)
                n["fromencoded"] = false;
            n["from"] = asked;
            n["to"] = t;
            normalized.push_back(std::move(n));
        }
        if(std::find(seen.begin(), seen.end(), t) != seen.end())
            continue;
        seen.push_back(t);

        json::object o;
        auto const bad = t.find_first_of("<>[]{}");
        if(t.empty() || bad != std::string::npos)
        {
            o["title"] = asked;
            o["invalidreason"] = t.empty()
                ? std::string("The requested page title is empty or contains only the name of a namespace.")
                : "The requested page title contains invalid characters: \"" + t.substr(bad, 1) + "\".";
            o["invalid"] = mw_flag(c.v2);
            --missing_id;
            if(c.v2)
                out_pages.push_back(std::move(o));
            else
                out_pages_v1[std::to_string(missing_id)] = std::move(o);
            continue;
        }

        wiki_page const* page = find_title(t);
        bool is_redirect = false;
        std::string title = t;
        if(!page)
            if(wiki_page const* target = find_redirect(t))
            {
                if(follow)
                {
                    json::object r;
                    r["from"] = t;
                    r["to"] = target->title;
                    redirects.push_back(std::move(r));
                    page = target;
                    title = target->title;
                    if(std::find(seen.begin(), seen.end(), title) != seen.end())
                        continue;
                    seen.push_back(title);
                }
                else
                {
                    page = target;
                    is_redirect = true;
                }
            }

        if(page)
            o["pageid"] = is_redirect ? page_id_of(*page) + 1 : page_id_of(*page);
        o["ns"] = 0;
        o["title"] = title;
        if(!page)
            o["missing"] = mw_flag(c.v2);
        if(page && extracts)
        {
            // Without exintro TextExtracts returns one extract per request.
            if(extract_given && !p.has("exintro"))
                extract_limited = true;
            else
            {
                extract_given = true;
                std::string text;
                if(!is_redirect)
                {
                    auto const all = sentences_of(page->extract);
                    std::size_t const n = sentences == 0
                        ? all.size()
                        : std::min<std::size_t>(all.size(), static_cast<std::size_t>(sentences));
                    for(std::size_t i = 0; i < n; ++i)
                        text.append(i == 0 ? "" : " ").append(all[i]);
                    if(sentences == 0 && chars > 0 &&
                        agentio::detail::utf8_code_points(text) > static_cast<std::size_t>(chars))
                    {
                        std::size_t bytes = 0, points = 0;
                        while(bytes < text.size() && points < static_cast<std::size_t>(chars))
                        {
                            std::size_t len = agentio::detail::utf8_sequence_length(text, bytes);
                            bytes += len == 0 ? 1 : len;
                            ++points;
                        }
                        text = text.substr(0, bytes) + "…";
                    }
                }
                o["extract"] = plain ? text : (text.empty() ? std::string() : "<p>" + html_escaped(text) + "</p>");
            }
        }
        if(info)
        {
            o["contentmodel"] = "wikitext";
            o["pagelanguage"] = c.lang;
            o["pagelanguagehtmlcode"] = c.lang;
            o["pagelanguagedir"] = "ltr";
            if(page)
            {
                o["touched"] = day_text(c.today - std::chrono::days(1)) + "T08:12:44Z";
                o["lastrevid"] = 1'200'000'000 + static_cast<std::int64_t>(web_hash(title) % 100'000'000);
                o["length"] = is_redirect ? static_cast<std::int64_t>(title.size() + 14)
                                          : static_cast<std::int64_t>(page->extract.size() * 9 + 1200);
                if(is_redirect)
                    o["redirect"] = mw_flag(c.v2);
            }
            if(urls)
            {
                std::string const url = page_url(c.lang, title);
                o["fullurl"] = url;
                std::string editable = title;
                std::replace(editable.begin(), editable.end(), ' ', '_');
                o["editurl"] = "https://" + c.lang + ".wikipedia.org/w/index.php?title=" + mediawiki_encoded(editable) +
                    "&action=edit";
                o["canonicalurl"] = url;
            }
        }
        if(page && !is_redirect && pageprops && page->disambiguation && disambiguation_asked)
        {
            json::object props_out;
            props_out["disambiguation"] = "";
            o["pageprops"] = std::move(props_out);
        }
        std::string key;
        if(page)
            key = std::to_string(o.at("pageid").as_int64());
        else
            key = std::to_string(--missing_id);
        if(c.v2)
            out_pages.push_back(std::move(o));
        else
            out_pages_v1[key] = std::move(o);
    }
    if(extract_limited)
        warnings["extracts"] = mw_warning(c.v2,
            "\"exlimit\" was too large for a whole article extracts request, lowered to 1.");
    if(!normalized.empty())
        query["normalized"] = std::move(normalized);
    if(!redirects.empty())
        query["redirects"] = std::move(redirects);
    if(c.v2 && !out_pages.empty())
        query["pages"] = std::move(out_pages);
    if(!c.v2 && !out_pages_v1.empty())
        query["pages"] = std::move(out_pages_v1);
    return std::nullopt;
}

// The parameters the fake knows; any other is warned about, as MediaWiki does.
inline constexpr std::string_view mediawiki_known_params[] = {"action", "format", "formatversion", "list", "srsearch",
    "srlimit", "sroffset", "srprop", "srinfo", "srwhat", "srnamespace", "srsort", "srqiprofile", "prop", "titles",
    "pageids", "exsentences", "explaintext", "exsectionformat", "exintro", "exchars", "exlimit", "inprop", "ppprop",
    "redirects", "utf8", "ascii", "origin", "maxlag", "smaxage", "maxage", "uselang", "errorformat", "errorlang",
    "continue", "curtimestamp", "responselanginfo", "requestid", "servedby", "assert", "assertuser"};

// The JSON answer of one API request (before the `format` wrapping).
inline web_answer mediawiki_json(mediawiki_call const& c, web_world_model const& w)
{
    web_params const& p = *c.params;
    json::object warnings;
    std::vector<std::string> unknown;
    for(auto const& [name, value] : p.list)
        if(std::find(std::begin(mediawiki_known_params), std::end(mediawiki_known_params), name) ==
                std::end(mediawiki_known_params) &&
            std::find(unknown.begin(), unknown.end(), name) == unknown.end())
            unknown.push_back(name);
    if(!unknown.empty())
    {
        std::string text = unknown.size() == 1 ? "Unrecognized parameter: " : "Unrecognized parameters: ";
        for(std::size_t i = 0; i < unknown.size(); ++i)
            text.append(i == 0 ? "" : ", ").append(unknown[i]);
        warnings["main"] = mw_warning(c.v2, text + ".");
    }

    std::string const action = p.get_or("action", "help");
    json::object top;
    if(action == "help")
    {
        json::object help;
        help["mime"] = "text/html";
        help["help"] = "<p>Main module: the MediaWiki action API of this fake; see "
                       "https://www.mediawiki.org/wiki/Special:MyLanguage/API:Main_page</p>";
        top["help"] = std::move(help);
        return json_answer(200, to_json_text(top));
    }
    if(action != "query")
        return mediawiki_error(c, "badvalue", "Unrecognized value for parameter \"action\": " + action + ".");

    json::object query;
    std::vector<std::string> props;
    for(auto const& v : split_bar(p.get_or("prop", "")))
    {
        if(v.empty())
            continue;
        if(v == "extracts" || v == "info" || v == "pageprops")
            props.push_back(v);
        else
            warnings["query"] = mw_warning(c.v2, "Unrecognized value for parameter \"prop\": " + v + ".");
    }
    bool searched = false;
    for(auto const& v : split_bar(p.get_or("list", "")))
    {
        if(v.empty())
            continue;
        if(v != "search")
        {
            warnings["query"] = mw_warning(c.v2, "Unrecognized value for parameter \"list\": " + v + ".");
            continue;
        }
        searched = true;
    }
    json::object cont;
    if(searched)
        if(auto failure = run_search(c, w, query, cont, warnings))
            return std::move(*failure);
    if(p.has("titles"))
        if(auto failure = run_titles(c, w, props, query, warnings))
            return std::move(*failure);

    if(!warnings.empty())
        top["warnings"] = std::move(warnings);
    top["batchcomplete"] = mw_flag(c.v2);
    if(auto* v = cont.if_contains("continue"))
        top["continue"] = std::move(*v);
    if(!query.empty())
        top["query"] = std::move(query);
    return json_answer(200, to_json_text(top));
}

// MediaWiki's default format when none is given: the JSON shown in an HTML page.
inline web_answer mediawiki_jsonfm(web_answer json_form)
{
    std::string page =
        "<!DOCTYPE html>\n<html class=\"client-nojs\" lang=\"en\" dir=\"ltr\">\n<head>\n"
        "<meta charset=\"UTF-8\"/>\n<title>MediaWiki API result - Wikipedia</title>\n</head>\n"
        "<body class=\"mediawiki ltr sitedir-ltr mw-hide-empty-elt ns--1 ns-special page-Special_Badtitle "
        "rootpage-Special_Badtitle skin-apioutput action-view\">\n"
        "<div class=\"api-pretty-header\">\n"
        "<p>This is the HTML representation of the JSON format. HTML is good for debugging, but is "
        "unsuitable for application use.</p>\n<p>Specify the <var>format</var> parameter to change the "
        "output format. To see the non-HTML representation of the JSON format, set "
        "<var>format=json</var>.</p>\n<p>See the <a "
        "href=\"https://www.mediawiki.org/wiki/Special:MyLanguage/API\">complete documentation</a>, or "
        "the <a href=\"/w/api.php\">API help</a> for more information.</p>\n</div>\n"
        "<pre class=\"api-pretty-content\">";
    page.append(html_escaped(json_form.body));
    page.append("</pre>\n</body>\n</html>\n");
    web_answer a = html_answer(200, std::move(page));
    a.headers = std::move(json_form.headers);
    return a;
}

// One request to `/{lang}/w/api.php`, past the User-Agent policy.
inline web_answer mediawiki_answer(web_world_model const& w, std::string lang, web_params const& params,
    std::chrono::sys_days today)
{
    mediawiki_call c;
    c.lang = std::move(lang);
    c.params = &params;
    c.today = today;
    std::string const version = params.get_or("formatversion", "1");
    c.v2 = version == "2" || version == "latest";
    std::string const format = params.get_or("format", "jsonfm");
    web_answer a;
    if(version != "1" && !c.v2)
        a = mediawiki_error(c, "badvalue", "Unrecognized value for parameter \"formatversion\": " + version + ".");
    else if(format != "json" && format != "jsonfm")
        a = mediawiki_error(c, "badvalue", "Unrecognized value for parameter \"format\": " + format + ".");
    else
        a = mediawiki_json(c, w);
    if(format != "json")
        return mediawiki_jsonfm(std::move(a));
    return a;
}

} // namespace agentio::testing::detail

#endif
