//
// agentio/testing/detail/fake_web_search.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Web search: Tavily's `POST /search` (JSON) and DuckDuckGo's HTML results
// page, both answered from the world's `search` entries
// (docs/notes/web-tools-plan.md sections 1 and 2).
//

#ifndef AGENTIO_TESTING_DETAIL_FAKE_WEB_SEARCH_HPP
#define AGENTIO_TESTING_DETAIL_FAKE_WEB_SEARCH_HPP

#include <agentio/json_text.hpp>
#include <agentio/testing/detail/fake_web_text.hpp>
#include <agentio/testing/detail/fake_web_world.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::testing::detail {

// The first entry whose `when_query_contains` occurs in the query.
inline web_search_entry const* find_search(web_world_model const& w, std::string_view query)
{
    for(auto const& e : w.search)
        if(contains_ignoring_case(query, e.when_query_contains))
            return &e;
    return nullptr;
}

// ================================================================================
// Tavily
// ================================================================================

// help.tavily.com's texts for the statuses the API documents.
inline std::string tavily_message(unsigned status)
{
    switch(status)
    {
    case 400: return "Bad Request";
    case 401: return "Unauthorized: missing or invalid API key";
    case 403: return "Forbidden";
    case 429: return "Your request has been blocked due to excessive requests. Please reduce rate of requests.";
    case 432:
        return "This request exceeds your plan's set usage limit. Please upgrade your plan or contact "
               "support@tavily.com.";
    case 433:
        return "This request exceeds the pay-as-you-go limit. You can increase your limit on the Tavily dashboard";
    default: return "Internal Server Error";
    }
}

inline web_answer tavily_error(unsigned status, std::string_view message)
{
    json::object detail;
    detail["error"] = message;
    json::object body;
    body["detail"] = std::move(detail);
    return json_answer(status, to_json_text(body));
}

// A request id shaped as the API's (a version-4 UUID), from the query and a counter.
inline std::string web_request_id(std::string_view seed, std::uint64_t n)
{
    std::uint64_t const a = web_hash(seed, 0x9E3779B97F4A7C15ull ^ n);
    std::uint64_t const b = web_hash(seed, a);
    char buf[80]; // room for any unsigned in each field: GCC checks the format against the types' ranges
    std::snprintf(buf, sizeof buf, "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(a >> 32),
        static_cast<unsigned>((a >> 16) & 0xFFFF), static_cast<unsigned>(a & 0xFFF),
        static_cast<unsigned>(0x8000 | ((b >> 48) & 0x3FFF)), static_cast<unsigned long long>(b & 0xFFFFFFFFFFFFull));
    return buf;
}

// A list of strings, or the reason it is not one.
inline std::optional<std::string> read_domains(json::object const& body, std::string_view key,
    std::vector<std::string>& out)
{
    auto const* v = body.if_contains(key);
    if(!v || v->is_null())
        return std::nullopt;
    if(!v->is_array())
        return std::string(key) + " must be a list of domains";
    for(auto const& d : v->get_array())
    {
        if(!d.is_string())
            return std::string(key) + " must be a list of domains";
        out.emplace_back(d.get_string());
    }
    return std::nullopt;
}

// `POST /search` with a body already past the key check.
inline web_answer tavily_search(web_world_model const& w, std::string_view body_text, std::uint64_t request_number)
{
    system::error_code ec;
    json::value const parsed = json::parse(body_text, ec);
    if(ec)
        return tavily_error(400, "Invalid JSON in request body: " + ec.message());
    if(!parsed.is_object())
        return tavily_error(400, "The request body must be a JSON object.");
    auto const& body = parsed.get_object();

    auto const* q = body.if_contains("query");
    if(!q || q->is_null())
        return tavily_error(400, "Query is missing.");
    if(!q->is_string())
        return tavily_error(400, "Query must be a string.");
    std::string const query(q->get_string());
    if(query.find_first_not_of(" \t\r\n") == std::string::npos)
        return tavily_error(400, "Query is missing.");

    std::int64_t max_results = 5;
    if(auto const* m = body.if_contains("max_results"); m && !m->is_null())
    {
        if(!m->is_int64() && !m->is_uint64())
            return tavily_error(400, "max_results must be an integer.");
        max_results = m->is_int64() ? m->get_int64()
                                    : static_cast<std::int64_t>(std::min<std::uint64_t>(m->get_uint64(), 1000));
        if(max_results < 0 || max_results > 20)
            return tavily_error(400, "max_results must be between 0 and 20.");
    }
    auto one_of = [&](std::string_view key,
                      std::initializer_list<std::string_view> values) -> std::optional<std::string> {
        auto const* v = body.if_contains(key);
        if(!v || v->is_null())
            return std::nullopt;
        if(v->is_string() && std::find(values.begin(), values.end(), std::string_view(v->get_string())) != values.end())
            return std::nullopt;
        std::string list;
        for(auto value : values)
            list.append(list.empty() ? "" : ", ").append(value);
        return "Invalid " + std::string(key) + ". Must be one of: " + list + ".";
    };
    if(auto problem = one_of("search_depth", {"basic", "advanced", "fast", "ultra-fast"}))
        return tavily_error(400, *problem);
    if(auto problem = one_of("topic", {"general", "news", "finance"}))
        return tavily_error(400, *problem);
    if(auto problem = one_of("time_range", {"day", "week", "month", "year", "d", "w", "m", "y"}))
        return tavily_error(400, *problem);

    bool with_answer = false;
    if(auto const* a = body.if_contains("include_answer"); a && !a->is_null())
    {
        if(a->is_bool())
            with_answer = a->get_bool();
        else if(a->is_string() && (a->get_string() == "basic" || a->get_string() == "advanced"))
            with_answer = true;
        else
            return tavily_error(400, "include_answer must be a boolean, \"basic\" or \"advanced\".");
    }
    bool with_raw = false;
    if(auto const* r = body.if_contains("include_raw_content"); r && !r->is_null())
    {
        if(r->is_bool())
            with_raw = r->get_bool();
        else if(r->is_string() && (r->get_string() == "markdown" || r->get_string() == "text"))
            with_raw = true;
        else
            return tavily_error(400, "include_raw_content must be a boolean, \"markdown\" or \"text\".");
    }
    std::vector<std::string> include, exclude;
    if(auto problem = read_domains(body, "include_domains", include))
        return tavily_error(400, *problem);
    if(auto problem = read_domains(body, "exclude_domains", exclude))
        return tavily_error(400, *problem);
    bool const news = body.contains("topic") && body.at("topic") == "news";

    // Written by hand: Python writes a whole float as 1.0, to_json_text as 1.
    web_search_entry const* entry = find_search(w, query);
    std::string out = "{\"query\":";
    append_json_string(out, query);
    out.append(",\"follow_up_questions\":null,\"answer\":");
    if(with_answer && entry && entry->answer)
        append_json_string(out, *entry->answer);
    else
        out.append("null");
    out.append(",\"images\":[],\"results\":[");
    std::int64_t sent = 0;
    if(entry)
        for(auto const& r : entry->results)
        {
            if(sent >= max_results)
                break;
            std::string const host = host_of(r.url);
            auto const in = [&](std::string const& d) { return host_in_domain(host, d); };
            if(!include.empty() && std::none_of(include.begin(), include.end(), in))
                continue;
            if(std::any_of(exclude.begin(), exclude.end(), in))
                continue;
            out.append(sent++ == 0 ? "{\"title\":" : ",{\"title\":");
            append_json_string(out, r.title);
            out.append(",\"url\":");
            append_json_string(out, r.url);
            out.append(",\"content\":");
            append_json_string(out, r.content);
            out.append(",\"score\":").append(python_float(r.score));
            out.append(",\"raw_content\":");
            if(with_raw)
                append_json_string(out, r.raw_content ? *r.raw_content : r.content);
            else
                out.append("null");
            if(news && !r.published_date.empty())
            {
                out.append(",\"published_date\":");
                append_json_string(out, r.published_date);
            }
            out.push_back('}');
        }
    out.append("],\"response_time\":");
    if(entry && !entry->response_time.is_null())
        out.append(to_json_text(entry->response_time));
    else
        out.append(python_float(rounded(0.6 + unit_of(web_hash(query)) * 1.4, 2)));
    out.append(",\"request_id\":");
    append_json_string(out, web_request_id(query, request_number));
    out.push_back('}');
    return json_answer(200, std::move(out));
}

// ================================================================================
// DuckDuckGo
// ================================================================================

inline std::string ddg_token(std::string_view seed)
{
    std::string out;
    std::uint64_t h = web_hash(seed);
    char buf[20];
    for(int i = 0; i < 4; ++i)
    {
        h = web_hash(seed, h + static_cast<std::uint64_t>(i));
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
        out.append(buf);
    }
    return out;
}

inline void ddg_head(std::string& page, std::string_view title)
{
    page.append("<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" "
                "\"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd\">\n"
                "<!--[if IE 6]><html class=\"ie6\" xmlns=\"http://www.w3.org/1999/xhtml\"><![endif]-->\n"
                "<html xmlns=\"http://www.w3.org/1999/xhtml\">\n<head>\n"
                "  <meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\" />\n"
                "  <meta name=\"viewport\" content=\"width=device-width, initial-scale=1.0, maximum-scale=3.0, "
                "user-scalable=1\" />\n"
                "  <meta name=\"referrer\" content=\"origin\" />\n"
                "  <meta name=\"HandheldFriendly\" content=\"true\" />\n"
                "  <meta name=\"robots\" content=\"noindex, nofollow\" />\n"
                "  <title>");
    page.append(title);
    page.append("</title>\n"
                "  <link title=\"DuckDuckGo (HTML)\" type=\"application/opensearchdescription+xml\" rel=\"search\" "
                "href=\"//duckduckgo.com/opensearch_html_v2.xml\" />\n"
                "  <link href=\"//duckduckgo.com/favicon.ico\" rel=\"shortcut icon\" />\n"
                "  <link rel=\"icon\" href=\"//duckduckgo.com/favicon.ico\" type=\"image/x-icon\" />\n"
                "  <link rel=\"stylesheet\" media=\"handheld, all\" href=\"//duckduckgo.com/dist/h.b6ed1a5b.css\" "
                "type=\"text/css\"/>\n"
                "</head>\n\n<body class=\"body--html\">\n"
                "  <a name=\"top\" id=\"top\"></a>\n\n"
                "  <form action=\"/html/\" method=\"post\">\n"
                "    <input type=\"text\" name=\"state_hidden\" id=\"state_hidden\" />\n"
                "  </form>\n\n");
}

inline void ddg_search_form(std::string& page, std::string_view escaped_query)
{
    page.append("  <div>\n    <div class=\"site-wrapper-border\"></div>\n\n"
                "    <div id=\"header\" class=\"header cw header--html\">\n"
                "        <a title=\"DuckDuckGo\" href=\"/html/\" class=\"header__logo-wrap\"></a>\n\n"
                "    <form name=\"x\" class=\"header__form\" action=\"/html/\" method=\"post\">\n"
                "      <div class=\"search search--header\">\n"
                "          <input name=\"q\" autocomplete=\"off\" class=\"search__input\" "
                "id=\"search_form_input_homepage\" type=\"text\" value=\"");
    page.append(escaped_query);
    page.append("\" />\n"
                "          <input name=\"b\" id=\"search_button_homepage\" class=\"search__button "
                "search__button--html\" value=\"\" title=\"Search\" alt=\"Search\" type=\"submit\" />\n"
                "      </div>\n\n"
                "    <div class=\"frm__select\">\n      <select name=\"kl\">\n"
                "        <option value=\"\" >All Regions</option>\n"
                "        <option value=\"es-es\" >Spain</option>\n"
                "        <option value=\"us-en\" >US (English)</option>\n"
                "        <option value=\"wt-wt\" >No region</option>\n      </select>\n    </div>\n\n"
                "    <div class=\"frm__select frm__select--last\">\n      <select class=\"\" name=\"df\">\n"
                "        <option value=\"\" selected>Any Time</option>\n"
                "        <option value=\"d\" >Past Day</option>\n"
                "        <option value=\"w\" >Past Week</option>\n"
                "        <option value=\"m\" >Past Month</option>\n"
                "        <option value=\"y\" >Past Year</option>\n      </select>\n    </div>\n\n"
                "    </form>\n\n    </div>\n");
}

// One result card, its link through DuckDuckGo's redirector.
inline void ddg_card(std::string& page, web_search_result const& r, std::vector<std::string> const& words)
{
    std::string link = "//duckduckgo.com/l/?uddg=" + percent_encoded(r.url) + "&amp;rut=" + ddg_token(r.url);
    std::string const host = host_of(r.url);
    page.append("            <div class=\"result results_links results_links_deep web-result \">\n"
                "          <div class=\"links_main links_deep result__body\"> <!-- This is the visible part -->\n"
                "          <h2 class=\"result__title\">\n"
                "            <a rel=\"nofollow\" class=\"result__a\" href=\"");
    page.append(link).append("\">").append(highlighted(r.title, words, "<b>", "</b>")).append("</a>\n");
    page.append("          </h2>\n"
                "      <div class=\"result__extras\">\n"
                "        <div class=\"result__extras__url\">\n"
                "          <span class=\"result__icon\">\n"
                "            <a rel=\"nofollow\" href=\"");
    page.append(link).append("\">\n              <img class=\"result__icon__img\" width=\"16\" height=\"16\" alt=\"\"\n"
                             "                src=\"//external-content.duckduckgo.com/ip3/");
    page.append(html_escaped(host)).append(".ico\" name=\"i15\" />\n            </a>\n          </span>\n");
    page.append("          <a class=\"result__url\" href=\"").append(link).append("\">\n                  ");
    page.append(html_escaped(without_scheme(r.url))).append("\n          </a>\n");
    if(!r.published_date.empty())
        page.append("          <span>&nbsp; &nbsp; ")
            .append(html_escaped(r.published_date))
            .append("T00:00:00.0000000</span>\n");
    page.append("        </div>\n      </div>\n"
                "          <a class=\"result__snippet\" href=\"");
    page.append(link).append("\">").append(highlighted(r.content, words, "<b>", "</b>")).append("</a>\n");
    page.append("          <div class=\"clear\"></div>\n        </div>\n      </div>\n\n");
}

// The sponsored card DuckDuckGo puts first; clients must drop it.
inline void ddg_ad(std::string& page, std::string_view query, std::vector<std::string> const& words)
{
    static constexpr std::string_view domains[] = {"www.ofertas-ejemplo.es", "shop.example.com", "deals.example.net"};
    std::string_view const domain = domains[web_hash(query) % std::size(domains)];
    std::string const href = "https://duckduckgo.com/y.js?ad_domain=" + std::string(domain) +
        "&amp;ad_provider=bingv7aa&amp;ad_type=txad&amp;click_metadata=" + ddg_token(query).substr(0, 32) +
        "&amp;rut=" + ddg_token(std::string(domain) + std::string(query)) +
        "&amp;u3=https%3A%2F%2Fwww.bing.com%2Faclick";
    std::string const title = std::string(query) + " - Official Site";
    std::string const snippet = "Find " + std::string(query) + " at great prices. Free delivery on eligible orders.";
    page.append("            <div class=\"result results_links results_links_deep result--ad \">\n"
                "          <div class=\"links_main links_deep result__body\">\n"
                "          <h2 class=\"result__title\">\n"
                "            <a rel=\"nofollow\" class=\"result__a\" href=\"");
    page.append(href).append("\">").append(highlighted(title, words, "<b>", "</b>")).append("</a>\n");
    page.append("          </h2>\n"
                "      <div class=\"result__extras\">\n"
                "        <div class=\"result__extras__url\">\n"
                "          <a class=\"result__url\" href=\"");
    page.append(href).append("\">").append(domain).append("</a>\n");
    page.append("          <a class=\"badge--ad\">Ad</a>\n"
                "        </div>\n      </div>\n"
                "          <a class=\"result__snippet\" href=\"");
    page.append(href).append("\">").append(highlighted(snippet, words, "<b>", "</b>")).append("</a>\n");
    page.append("          <div class=\"clear\"></div>\n        </div>\n      </div>\n\n");
}

// The results page for `query` (the home page for an empty one).
inline web_answer duckduckgo_page(web_world_model const& w, std::string const& query)
{
    std::string page;
    std::string const escaped = html_escaped(query);
    if(query.find_first_not_of(" \t\r\n") == std::string::npos)
    {
        ddg_head(page, "DuckDuckGo");
        ddg_search_form(page, "");
        page.append("  </div>\n</body>\n</html>\n");
        return html_answer(200, std::move(page));
    }
    ddg_head(page, escaped + " at DuckDuckGo");
    ddg_search_form(page, escaped);
    page.append("  <!-- Web results are present -->\n\n  <div>\n  <div class=\"serp__results\">\n"
                "  <div id=\"links\" class=\"results\">\n\n");
    std::vector<std::string> const words = query_words(query);
    web_search_entry const* entry = find_search(w, query);
    if(!entry || entry->results.empty())
    {
        page.append("            <div class=\"result results_links results_links_deep result--no-result\">\n"
                    "          <div class=\"links_main links_deep result__body\">\n"
                    "          <h2 class=\"result__title\">\n          </h2>\n"
                    "            <div class=\"no-results\">No more results.</div>\n"
                    "          <div class=\"clear\"></div>\n        </div>\n      </div>\n\n");
    }
    else
    {
        ddg_ad(page, query, words);
        for(auto const& r : entry->results)
            ddg_card(page, r, words);
        page.append("        <div class=\"nav-link\">\n        <form action=\"/html/\" method=\"post\">\n"
                    "          <input type=\"submit\" class='btn btn--alt' value=\"Next\" />\n"
                    "          <input type=\"hidden\" name=\"q\" value=\"");
        page.append(escaped);
        page.append("\" />\n          <input type=\"hidden\" name=\"s\" value=\"10\" />\n"
                    "          <input type=\"hidden\" name=\"nextParams\" value=\"\" />\n"
                    "          <input type=\"hidden\" name=\"v\" value=\"l\" />\n"
                    "          <input type=\"hidden\" name=\"o\" value=\"json\" />\n"
                    "          <input type=\"hidden\" name=\"dc\" value=\"");
        page.append(std::to_string(entry->results.size() + 1));
        page.append("\" />\n          <input type=\"hidden\" name=\"api\" value=\"d.js\" />\n"
                    "          <input type=\"hidden\" name=\"vqd\" value=\"4-");
        page.append(std::to_string(web_hash(query) % 100000000000ull));
        page.append("\" />\n          <input name=\"kl\" value=\"wt-wt\" type=\"hidden\" />\n"
                    "        </form>\n        </div>\n\n");
    }
    page.append("  </div>\n  </div>\n  </div>\n\n"
                "    <div id=\"bottom_spacing2\"></div>\n\n"
                "  <img src=\"//duckduckgo.com/t/sl_h\"/>\n</body>\n</html>\n");
    return html_answer(200, std::move(page));
}

// The bot check DuckDuckGo answers instead of results (with 202, sometimes 200).
inline web_answer duckduckgo_anomaly(unsigned status, std::string_view query)
{
    std::string page;
    ddg_head(page, "DuckDuckGo");
    page.append("  <div class=\"anomaly-modal__mask\">\n"
                "    <div class=\"anomaly-modal__modal\" data-testid=\"anomaly-modal\">\n"
                "      <div class=\"anomaly-modal__title\">Unfortunately, bots use DuckDuckGo too.</div>\n"
                "      <div class=\"anomaly-modal__description\">Please complete the following challenge to confirm "
                "this search was made by a human.</div>\n"
                "      <form id=\"challenge-form\" action=\"//duckduckgo.com/anomaly.js?sv=html&amp;cc=botnet&amp;ti=");
    page.append(std::to_string(1700000000 + web_hash(query) % 100000000));
    page.append("&amp;gk=d4cd0dabcf4caa22ad92fab40844c786&amp;p=");
    page.append(ddg_token(query).substr(0, 40));
    page.append("&amp;q=");
    page.append(html_escaped(percent_encoded(query)));
    page.append("&amp;s=");
    page.append(ddg_token(std::string(query) + "s").substr(0, 24));
    page.append("\" method=\"POST\">\n"
                "        <div class=\"anomaly-modal__instructions\">Select all squares containing a duck:</div>\n"
                "        <div class=\"anomaly-modal__images\"></div>\n"
                "        <button type=\"submit\" class=\"btn anomaly-modal__submit\" disabled>Submit</button>\n"
                "      </form>\n"
                "      <div class=\"anomaly-modal__footer\">Images not loading? <a "
                "href=\"mailto:error-lite@duckduckgo.com\">error-lite@duckduckgo.com</a></div>\n"
                "    </div>\n  </div>\n</body>\n</html>\n");
    return html_answer(status, std::move(page));
}

} // namespace agentio::testing::detail

#endif
