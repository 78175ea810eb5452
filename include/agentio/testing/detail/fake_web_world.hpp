//
// agentio/testing/detail/fake_web_world.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The world of the fake web services in typed form, and its reader: every
// key checked, every problem named by JSON Pointer.
//

#ifndef AGENTIO_TESTING_DETAIL_FAKE_WEB_WORLD_HPP
#define AGENTIO_TESTING_DETAIL_FAKE_WEB_WORLD_HPP

#include <agentio/testing/detail/fake_web_text.hpp>
#include <agentio/testing/fake_web.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::testing::detail {

struct web_search_result
{
    std::string title;
    std::string url;
    std::string content;
    double score = 0.5;
    std::optional<std::string> raw_content; // sent with include_raw_content; unset: the content
    std::string published_date;             // Tavily news results; DuckDuckGo's date line
};

struct web_search_entry
{
    std::string when_query_contains;
    std::optional<std::string> answer;
    std::vector<web_search_result> results;
    json::value response_time; // null: a number the fake picks
};

struct wiki_page
{
    std::string title;
    std::string extract;
    std::vector<std::string> redirects;
    bool disambiguation = false;
    std::int64_t pageid = 0; // 0: derived from the title
};

struct web_place
{
    std::int64_t id = 0;
    std::string name;
    std::vector<std::pair<std::string, std::string>> names; // language → name
    double latitude = 0;
    double longitude = 0;
    double elevation = 0;
    std::string feature_code;
    std::string country_code;
    std::int64_t country_id = 0;
    std::string country;
    std::string admin[4];
    std::int64_t admin_id[4] = {0, 0, 0, 0};
    std::string timezone;
    std::uint64_t population = 0;
    std::vector<std::string> postcodes;

    // Its name in a language, or its own.
    std::string const& name_in(std::string_view language) const
    {
        for(auto const& [lang, n] : names)
            if(lang == language)
                return n;
        return name;
    }
};

struct web_world_model
{
    std::vector<web_search_entry> search;
    std::map<std::string, std::vector<wiki_page>, std::less<>> wikipedia; // by language
    std::vector<web_place> places;
    std::vector<web_fault> faults;

    std::vector<wiki_page> const* pages_of(std::string_view language) const
    {
        auto const it = wikipedia.find(language);
        return it == wikipedia.end() ? nullptr : &it->second;
    }
};

inline constexpr std::string_view web_services[] = {"tavily", "duckduckgo", "wikipedia", "geocoding", "forecast"};

// What is wrong with a fault, if anything.
inline std::optional<std::string> web_fault_problem(web_fault const& f)
{
    if(std::find(std::begin(web_services), std::end(web_services), f.service) == std::end(web_services))
        return "unknown service '" + f.service + "' (tavily, duckduckgo, wikipedia, geocoding, forecast)";
    static constexpr std::string_view common[] = {"http_error", "garbage", "html_page", "truncate", "stall",
        "disconnect"};
    if(std::find(std::begin(common), std::end(common), f.kind) != std::end(common))
    {
        if((f.kind == "http_error" || f.kind == "html_page") && (f.status < 100 || f.status > 599))
            return "status " + std::to_string(f.status) + " is not an HTTP status";
        return std::nullopt;
    }
    if(f.kind == "blocked")
        return f.service == "duckduckgo" ? std::nullopt : std::optional<std::string>("kind 'blocked' is DuckDuckGo's");
    if(f.kind == "api_error")
        return f.service == "wikipedia" ? std::nullopt : std::optional<std::string>("kind 'api_error' is MediaWiki's");
    if(f.kind == "stream_error")
        return f.service == "geocoding" || f.service == "forecast"
            ? std::nullopt
            : std::optional<std::string>("kind 'stream_error' is Open-Meteo's (geocoding, forecast)");
    return "unknown kind '" + f.kind +
        "' (http_error, garbage, html_page, truncate, stall, disconnect, blocked, api_error, stream_error)";
}

// A Wikipedia language code as the subdomain allows it.
inline bool valid_wiki_language(std::string_view lang) noexcept
{
    if(lang.size() < 2 || lang.size() > 12 || lang[0] < 'a' || lang[0] > 'z')
        return false;
    return std::all_of(lang.begin(), lang.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '-'; });
}

class web_world_reader
{
public:
    explicit web_world_reader(std::string file) : file_(std::move(file)) {}

    web_world_model read(json::value const& v)
    {
        auto const& o = object(v);
        check_keys(o, {"description", "search", "wikipedia", "places", "faults"});
        web_world_model w;
        if(auto const* s = o.if_contains("description"))
            string(*s, "description");
        if(auto const* s = o.if_contains("search"))
        {
            auto const& list = array(*s, "search");
            enter e(*this, "search");
            for(std::size_t i = 0; i < list.size(); ++i)
            {
                enter e2(*this, i);
                w.search.push_back(read_search(list[i]));
            }
        }
        if(auto const* s = o.if_contains("wikipedia"))
        {
            auto const& langs = object(*s, "wikipedia");
            enter e(*this, "wikipedia");
            for(auto const& kv : langs)
            {
                std::string const lang(kv.key());
                if(!valid_wiki_language(lang))
                    fail_at(lang, "not a Wikipedia language code (2 to 12 of a-z and -, starting with a letter)");
                auto const& list = array(kv.value(), lang);
                enter e2(*this, lang);
                auto& pages = w.wikipedia[lang];
                for(std::size_t i = 0; i < list.size(); ++i)
                {
                    enter e3(*this, i);
                    pages.push_back(read_page(list[i], pages));
                }
            }
        }
        if(auto const* s = o.if_contains("places"))
        {
            auto const& list = array(*s, "places");
            enter e(*this, "places");
            for(std::size_t i = 0; i < list.size(); ++i)
            {
                enter e2(*this, i);
                w.places.push_back(read_place(list[i]));
            }
        }
        if(auto const* s = o.if_contains("faults"))
        {
            auto const& list = array(*s, "faults");
            enter e(*this, "faults");
            for(std::size_t i = 0; i < list.size(); ++i)
            {
                enter e2(*this, i);
                w.faults.push_back(read_fault(list[i]));
            }
        }
        return w;
    }

private:
    struct enter
    {
        enter(web_world_reader& r, std::string_view key) : r_(r)
        {
            r_.path_.push_back('/');
            append_escaped(r_.path_, key);
        }
        enter(web_world_reader& r, std::size_t index) : r_(r)
        {
            r_.path_.push_back('/'); // not "/" + std::to_string(…): GCC 12's -Wrestrict false positive
            r_.path_.append(std::to_string(index));
        }
        ~enter() { r_.path_.erase(r_.path_.rfind('/')); }
        enter(enter const&) = delete;
        enter& operator=(enter const&) = delete;

    private:
        web_world_reader& r_;
    };

    static void append_escaped(std::string& out, std::string_view key)
    {
        for(char c : key)
            if(c == '~')
                out.append("~0");
            else if(c == '/')
                out.append("~1");
            else
                out.push_back(c);
    }

    [[noreturn]] void fail(std::string const& message) const { throw web_world_error(file_, path_, message); }

    [[noreturn]] void fail_at(std::string_view key, std::string const& message)
    {
        enter e(*this, key);
        fail(message);
    }

    json::object const& object(json::value const& v, std::string_view key = {})
    {
        if(!v.is_object())
        {
            if(key.empty())
                fail("must be an object");
            fail_at(key, "must be an object");
        }
        return v.get_object();
    }

    json::array const& array(json::value const& v, std::string_view key)
    {
        if(!v.is_array())
            fail_at(key, "must be an array");
        return v.get_array();
    }

    std::string string(json::value const& v, std::string_view key)
    {
        if(!v.is_string())
            fail_at(key, "must be a string");
        return std::string(v.get_string());
    }

    double number(json::value const& v, std::string_view key, double lo, double hi)
    {
        if(!v.is_number())
            fail_at(key, "must be a number");
        double const d = v.to_number<double>();
        if(d < lo || d > hi)
            fail_at(key, "must be between " + swift_float(lo) + " and " + swift_float(hi));
        return d;
    }

    std::int64_t integer(json::value const& v, std::string_view key, std::int64_t lo, std::int64_t hi)
    {
        std::int64_t n = 0;
        if(v.is_int64())
            n = v.get_int64();
        else if(v.is_uint64() && v.get_uint64() <= static_cast<std::uint64_t>(hi))
            n = static_cast<std::int64_t>(v.get_uint64());
        else
            fail_at(key, "must be a whole number");
        if(n < lo || n > hi)
            fail_at(key, "must be between " + std::to_string(lo) + " and " + std::to_string(hi));
        return n;
    }

    bool boolean(json::value const& v, std::string_view key)
    {
        if(!v.is_bool())
            fail_at(key, "must be true or false");
        return v.get_bool();
    }

    json::value const& required(json::object const& o, std::string_view key)
    {
        auto const* v = o.if_contains(key);
        if(!v)
            fail("missing required key '" + std::string(key) + "'");
        return *v;
    }

    void check_keys(json::object const& o, std::initializer_list<std::string_view> known)
    {
        for(auto const& kv : o)
            if(std::find(known.begin(), known.end(), kv.key()) == known.end())
                fail_at(kv.key(), "unknown key");
    }

    web_search_entry read_search(json::value const& v)
    {
        auto const& o = object(v);
        check_keys(o, {"when_query_contains", "answer", "results", "response_time"});
        web_search_entry e;
        e.when_query_contains = string(required(o, "when_query_contains"), "when_query_contains");
        if(auto const* a = o.if_contains("answer"); a && !a->is_null())
            e.answer = string(*a, "answer");
        if(auto const* t = o.if_contains("response_time"))
        {
            if(!t->is_number() && !t->is_string())
                fail_at("response_time", "must be a number, or a string (as the API's documentation shows it)");
            e.response_time = *t;
        }
        if(auto const* r = o.if_contains("results"))
        {
            auto const& list = array(*r, "results");
            enter en(*this, "results");
            for(std::size_t i = 0; i < list.size(); ++i)
            {
                enter e2(*this, i);
                auto const& ro = object(list[i]);
                check_keys(ro, {"title", "url", "content", "score", "raw_content", "published_date"});
                web_search_result res;
                res.title = string(required(ro, "title"), "title");
                res.url = string(required(ro, "url"), "url");
                if(host_of(res.url).empty())
                    fail_at("url", "must be an absolute URL with a host");
                if(auto const* c = ro.if_contains("content"))
                    res.content = string(*c, "content");
                res.score = 0.9 - 0.07 * static_cast<double>(std::min<std::size_t>(i, 12));
                if(auto const* s = ro.if_contains("score"))
                    res.score = number(*s, "score", 0, 1);
                if(auto const* c = ro.if_contains("raw_content"))
                    res.raw_content = string(*c, "raw_content");
                if(auto const* d = ro.if_contains("published_date"))
                    res.published_date = string(*d, "published_date");
                e.results.push_back(std::move(res));
            }
        }
        return e;
    }

    wiki_page read_page(json::value const& v, std::vector<wiki_page> const& earlier)
    {
        auto const& o = object(v);
        check_keys(o, {"title", "extract", "redirects", "disambiguation", "pageid"});
        wiki_page p;
        p.title = string(required(o, "title"), "title");
        if(p.title.empty())
            fail_at("title", "must not be empty");
        p.extract = string(required(o, "extract"), "extract");
        if(auto const* r = o.if_contains("redirects"))
        {
            auto const& list = array(*r, "redirects");
            enter e(*this, "redirects");
            for(std::size_t i = 0; i < list.size(); ++i)
            {
                std::string name = string(list[i], std::to_string(i));
                if(name.empty() || name == p.title)
                    fail_at(std::to_string(i), "a redirect needs a title of its own");
                p.redirects.push_back(std::move(name));
            }
        }
        if(auto const* d = o.if_contains("disambiguation"))
            p.disambiguation = boolean(*d, "disambiguation");
        if(auto const* id = o.if_contains("pageid"))
            p.pageid = integer(*id, "pageid", 1, 2'000'000'000);
        for(auto const& q : earlier)
        {
            bool clash = q.title == p.title;
            for(auto const& r : p.redirects)
                clash = clash || r == q.title ||
                    std::find(q.redirects.begin(), q.redirects.end(), r) != q.redirects.end();
            for(auto const& r : q.redirects)
                clash = clash || r == p.title;
            if(clash)
                fail_at("title", "'" + p.title + "' or one of its redirects names another page of this language");
        }
        return p;
    }

    web_place read_place(json::value const& v)
    {
        auto const& o = object(v);
        check_keys(o,
            {"id", "name", "names", "latitude", "longitude", "elevation", "feature_code", "country_code", "country_id",
                "country", "admin1", "admin2", "admin3", "admin4", "admin1_id", "admin2_id", "admin3_id", "admin4_id",
                "timezone", "population", "postcodes"});
        web_place p;
        p.id = integer(required(o, "id"), "id", 1, 2'147'483'647); // int32 in the protobuf
        p.name = string(required(o, "name"), "name");
        if(p.name.empty())
            fail_at("name", "must not be empty");
        if(auto const* n = o.if_contains("names"))
        {
            auto const& names = object(*n, "names");
            enter e(*this, "names");
            for(auto const& kv : names)
                p.names.emplace_back(std::string(kv.key()), string(kv.value(), kv.key()));
        }
        p.latitude = number(required(o, "latitude"), "latitude", -90, 90);
        p.longitude = number(required(o, "longitude"), "longitude", -180, 180);
        if(auto const* e = o.if_contains("elevation"))
            p.elevation = number(*e, "elevation", -500, 9000);
        if(auto const* s = o.if_contains("feature_code"))
            p.feature_code = string(*s, "feature_code");
        if(auto const* s = o.if_contains("country_code"))
        {
            p.country_code = string(*s, "country_code");
            if(p.country_code.size() != 2 ||
                !std::all_of(p.country_code.begin(), p.country_code.end(), [](char c) { return c >= 'A' && c <= 'Z'; }))
                fail_at("country_code", "must be an ISO 3166-1 alpha-2 code in capitals, as the API stores it");
        }
        if(auto const* s = o.if_contains("country_id"))
            p.country_id = integer(*s, "country_id", 0, 2'147'483'647);
        if(auto const* s = o.if_contains("country"))
            p.country = string(*s, "country");
        for(int i = 0; i < 4; ++i)
        {
            std::string const key = "admin" + std::to_string(i + 1);
            if(auto const* s = o.if_contains(key))
                p.admin[i] = string(*s, key);
            if(auto const* s = o.if_contains(key + "_id"))
                p.admin_id[i] = integer(*s, key + "_id", 0, 2'147'483'647);
        }
        if(auto const* s = o.if_contains("timezone"))
            p.timezone = string(*s, "timezone");
        if(auto const* s = o.if_contains("population"))
            p.population = static_cast<std::uint64_t>(integer(*s, "population", 0, 4'294'967'295));
        if(auto const* s = o.if_contains("postcodes"))
        {
            auto const& list = array(*s, "postcodes");
            enter e(*this, "postcodes");
            for(std::size_t i = 0; i < list.size(); ++i)
                p.postcodes.push_back(string(list[i], std::to_string(i)));
        }
        return p;
    }

    web_fault read_fault(json::value const& v)
    {
        auto const& o = object(v);
        check_keys(o, {"service", "kind", "status", "retry_after_seconds", "times", "when_contains"});
        web_fault f;
        f.service = string(required(o, "service"), "service");
        f.kind = string(required(o, "kind"), "kind");
        if(auto const* s = o.if_contains("status"))
            f.status = static_cast<unsigned>(integer(*s, "status", 100, 599));
        if(auto const* s = o.if_contains("retry_after_seconds"))
            f.retry_after_seconds = static_cast<unsigned>(integer(*s, "retry_after_seconds", 0, 86'400));
        if(auto const* s = o.if_contains("times"))
            f.times = static_cast<std::size_t>(integer(*s, "times", 0, 1'000'000'000));
        if(auto const* s = o.if_contains("when_contains"))
            f.when_contains = string(*s, "when_contains");
        if(auto problem = web_fault_problem(f))
            fail(*problem);
        return f;
    }

    std::string file_;
    std::string path_;
};

} // namespace agentio::testing::detail

#endif
