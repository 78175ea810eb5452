// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The ready-made web tools (agentio::tools) through a toolset, as a model
// calls them, against agentio::testing::fake_web on loopback with the world
// of tests/web/world.json: each tool's answers, its normal "nothing found"
// answers, its validation, and each service fault the fake plays becoming a
// retry or an error the model can read.

#define BOOST_TEST_MODULE agentio_tools_tests
#include <agentio/tools.hpp>

#include <agentio/testing/fake_web.hpp>
#include <agentio/tools/detail/duckduckgo.hpp>

#include "run_on.hpp"
#include "test_paths.hpp"
#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <fstream>
#include <cstdlib>
#include <map>
#include <optional>
#include <iterator>
#include <set>
#include <string>
#include <vector>

namespace asio = boost::asio;
namespace json = boost::json;
namespace tools = agentio::tools;
namespace testing = agentio::testing;
using namespace std::chrono_literals;

namespace {

std::string read_text(std::string const& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Quick retries: the faults' tests should not wait the defaults' half second.
tools::service_options quick(tools::service_options o = {})
{
    o.initial_delay = 10ms;
    o.max_delay = 50ms;
    return o;
}

struct web
{
    asio::io_context ioc;
    testing::fake_web fake{ioc.get_executor()};
    agentio::http::client http{ioc.get_executor()};

    web()
    {
        fake.set_world(testing::read_web_world(agentio_test::source_dir() + "/tests/web/world.json"));
        BOOST_TEST_REQUIRE(fake.start().has_value());
    }
    ~web() { fake.stop(); }

    tools::wikipedia_options wiki_options()
    {
        tools::wikipedia_options o;
        o.api_url = fake.wikipedia_api_url();
        o.default_language = "es";
        o.service = quick(o.service);
        return o;
    }

    tools::weather_options weather_options()
    {
        tools::weather_options o;
        o.geocoding_url = fake.geocoding_url();
        o.forecast_url = fake.forecast_url();
        o.language = "es";
        o.geocoding = quick(o.geocoding);
        o.forecast = quick(o.forecast);
        return o;
    }

    tools::web_search_options search_options(std::string key = "tvly-test")
    {
        tools::web_search_options o;
        o.tavily_api_key = std::move(key);
        o.tavily_base_url = fake.tavily_base_url();
        o.fallback_url = fake.duckduckgo_url();
        o.tavily = quick(o.tavily);
        o.fallback = quick(o.fallback);
        return o;
    }

    /// The traceparent the calls are made under (tool_context::traceparent); empty: none.
    std::string traceparent;

    /// One call as the model makes it: by name, with JSON arguments, validated.
    template<class Catalog>
    agentio::tool_result call(Catalog const& catalog, std::string_view name, json::value arguments)
    {
        ioc.restart();
        return agentio_test::run_on(ioc, call_on(catalog, std::string(name), std::move(arguments), traceparent), 30s);
    }

    template<class Catalog>
    static asio::awaitable<agentio::tool_result> call_on(Catalog const& catalog, std::string name,
        json::value arguments, std::string traceparent)
    {
        agentio::tool_context ctx;
        ctx.tool_name = name;
        ctx.traceparent = traceparent;
        co_return co_await catalog.call(name, arguments, ctx);
    }

    std::size_t requests_to(std::string_view service) const
    {
        std::size_t n = 0;
        for(auto const& r : fake.requests())
            n += r.service == service;
        return n;
    }
};

std::string text_of(agentio::tool_result const& r)
{
    std::string out;
    for(auto const& block : r.content)
        if(auto const* t = std::get_if<agentio::text_content>(&block))
            out += t->text;
    return out;
}

json::object answer_of(agentio::tool_result const& r)
{
    BOOST_TEST_INFO(text_of(r));
    BOOST_TEST_REQUIRE(!r.is_error);
    return json::parse(text_of(r)).as_object();
}

// The first `n` sentences of the world's extract of `title`, as the fake cuts them.
std::string world_sentences(std::string const& language, std::string const& title, std::size_t n)
{
    auto const world = json::parse(read_text(agentio_test::source_dir() + "/tests/web/world.json"));
    for(auto const& page : world.at("wikipedia").at(language).as_array())
        if(page.at("title").as_string() == title)
        {
            std::string_view rest = page.at("extract").as_string();
            std::string out;
            for(std::size_t i = 0; i < n && !rest.empty(); ++i)
            {
                auto const end = rest.find(". ");
                auto const cut = end == std::string_view::npos ? rest.size() : end + 1;
                out += (out.empty() ? "" : " ") + std::string(rest.substr(0, cut));
                rest.remove_prefix(std::min(rest.size(), cut + 1));
            }
            return out;
        }
    return "(no page " + title + ")";
}

} // namespace

BOOST_AUTO_TEST_SUITE(tools_wikipedia)

BOOST_FIXTURE_TEST_CASE(the_best_match_in_n_sentences_with_its_url, web)
{
    agentio::toolset catalog{tools::wikipedia(http, wiki_options())};
    auto const got = answer_of(call(catalog, "wikipedia", {{"query", "Bilbao"}, {"sentences", 2}}));
    BOOST_TEST(got.at("found").as_bool());
    BOOST_TEST(got.at("title").as_string() == "Bilbao");
    BOOST_TEST(got.at("language").as_string() == "es"); // the tool's default
    BOOST_TEST(got.at("url").as_string() == "https://es.wikipedia.org/wiki/Bilbao");
    BOOST_TEST(got.at("extract").as_string() == world_sentences("es", "Bilbao", 2));
    // Wikimedia's policy: a User-Agent with a contact, on every request.
    for(auto const& r : fake.requests())
        BOOST_TEST(std::string(r.headers[boost::beast::http::field::user_agent]).find("(https://") !=
            std::string::npos);

    auto const english = answer_of(call(catalog, "wikipedia", {{"query", "Madrid"}, {"language", "en"}}));
    BOOST_TEST(english.at("url").as_string() == "https://en.wikipedia.org/wiki/Madrid");
    BOOST_TEST(english.at("extract").as_string() == world_sentences("en", "Madrid", 3));
}

// A traced call's context goes to every service it asks (a Tavily, MediaWiki or Open-Meteo that traces joins
// the trace); an untraced call sends none.
BOOST_FIXTURE_TEST_CASE(every_service_asked_gets_the_calls_traceparent, web)
{
    agentio::toolset catalog{tools::wikipedia(http, wiki_options()), tools::weather(http, weather_options()),
        tools::web_search(http, search_options())};
    BOOST_TEST(!call(catalog, "wikipedia", {{"query", "Bilbao"}}).is_error);
    for(auto const& r : fake.requests())
        BOOST_TEST((r.headers.find("traceparent") == r.headers.end()));
    auto const untraced = fake.requests().size();
    traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    BOOST_TEST(!call(catalog, "wikipedia", {{"query", "Madrid"}}).is_error);
    call(catalog, "weather", {{"location", "Bilbao"}});
    call(catalog, "web_search", {{"query", "agentio"}});
    auto const all = fake.requests();
    BOOST_TEST_REQUIRE(all.size() > untraced + 3);
    std::set<std::string> services;
    for(std::size_t i = untraced; i < all.size(); ++i)
    {
        BOOST_TEST(std::string(all[i].headers["traceparent"]) == traceparent);
        services.insert(all[i].service);
    }
    BOOST_TEST(services.size() >= 3u); // MediaWiki, the geocoder and the forecast, Tavily
}

BOOST_FIXTURE_TEST_CASE(meanings_and_nothing_are_answers, web)
{
    agentio::toolset catalog{tools::wikipedia(http, wiki_options())};
    auto const meanings = answer_of(call(catalog, "wikipedia", {{"query", "Mercurio"}}));
    BOOST_TEST(meanings.at("disambiguation").as_bool());
    BOOST_TEST(meanings.at("title").as_string() == "Mercurio");
    BOOST_TEST(json::serialize(meanings.at("other_titles")).find("Mercurio (planeta)") != std::string::npos);

    auto const nothing = call(catalog, "wikipedia", {{"query", "xyzzyquux plonk"}});
    BOOST_TEST(!nothing.is_error);
    BOOST_TEST(answer_of(nothing).at("found").as_bool() == false);
}

BOOST_FIXTURE_TEST_CASE(arguments_out_of_range_name_the_field, web)
{
    agentio::toolset catalog{tools::wikipedia(http, wiki_options())};
    for(int n : {0, 11})
    {
        auto const r = call(catalog, "wikipedia", {{"query", "Bilbao"}, {"sentences", n}});
        BOOST_TEST(r.is_error);
        BOOST_TEST(text_of(r).find("sentences") != std::string::npos, text_of(r));
    }
    auto const empty = call(catalog, "wikipedia", {{"query", ""}});
    BOOST_TEST(empty.is_error);
    BOOST_TEST(text_of(empty).find("query") != std::string::npos, text_of(empty));
    auto const host = call(catalog, "wikipedia", {{"query", "Bilbao"}, {"language", "es.evil.com/"}});
    BOOST_TEST(host.is_error);
    BOOST_TEST(text_of(host).find("language: 'es.evil.com/'") != std::string::npos, text_of(host));
    BOOST_TEST(fake.requests().empty()); // nothing was asked of the service
}

BOOST_FIXTURE_TEST_CASE(a_service_that_fails_is_retried_then_an_error_to_read, web)
{
    tools::wikipedia wiki(http, wiki_options());
    agentio::toolset catalog{wiki};
    testing::web_fault once;
    once.service = "wikipedia";
    once.kind = "http_error";
    once.status = 503;
    once.times = 1;
    fake.add_fault(once);
    BOOST_TEST(answer_of(call(catalog, "wikipedia", {{"query", "Bilbao"}})).at("found").as_bool());
    BOOST_TEST(wiki.service().stats().retries == 1u);

    fake.clear_faults();
    testing::web_fault api;
    api.service = "wikipedia";
    api.kind = "api_error";
    fake.add_fault(api);
    auto const failed = call(catalog, "wikipedia", {{"query", "Madrid"}});
    BOOST_TEST(failed.is_error);
    BOOST_TEST(text_of(failed).find("Wikipedia answered an error: internal_api_error_DBQueryError") !=
            std::string::npos,
        text_of(failed));

    fake.clear_faults();
    testing::web_fault garbage;
    garbage.service = "wikipedia";
    garbage.kind = "garbage";
    fake.add_fault(garbage);
    auto const broken = call(catalog, "wikipedia", {{"query", "Sevilla"}});
    BOOST_TEST(broken.is_error);
    BOOST_TEST(text_of(broken).find("not the API's JSON") != std::string::npos, text_of(broken));

    fake.clear_faults();
    testing::web_fault down;
    down.service = "wikipedia";
    down.kind = "html_page";
    down.status = 503;
    fake.add_fault(down);
    auto const unavailable = call(catalog, "wikipedia", {{"query", "Barcelona"}});
    BOOST_TEST(unavailable.is_error);
    BOOST_TEST(text_of(unavailable).find("Wikipedia answered HTTP 503") != std::string::npos, text_of(unavailable));
    BOOST_TEST(text_of(unavailable).find('<') == std::string::npos, text_of(unavailable)); // the page's words only
}

BOOST_FIXTURE_TEST_CASE(a_user_agent_without_a_contact_is_refused_as_wikimedia_does, web)
{
    auto o = wiki_options();
    o.service.user_agent = "agentio/0.2.0";
    agentio::toolset catalog{tools::wikipedia(http, o)};
    auto const r = call(catalog, "wikipedia", {{"query", "Bilbao"}});
    BOOST_TEST(r.is_error);
    BOOST_TEST(text_of(r).find("Wikipedia answered HTTP 403") != std::string::npos, text_of(r));
    BOOST_TEST(text_of(r).find("user-agent") != std::string::npos, text_of(r));
}

BOOST_FIXTURE_TEST_CASE(good_answers_are_served_again_from_the_cache, web)
{
    tools::wikipedia wiki(http, wiki_options());
    agentio::toolset catalog{wiki};
    auto const first = answer_of(call(catalog, "wikipedia", {{"query", "Bilbao"}}));
    auto const asked = fake.requests().size();
    auto const again = answer_of(call(catalog, "wikipedia", {{"query", "Bilbao"}}));
    BOOST_TEST(json::serialize(first) == json::serialize(again));
    BOOST_TEST(fake.requests().size() == asked);
    BOOST_TEST(wiki.service().stats().cache_hits == 2u); // the search and the page
    // An error is never kept.
    testing::web_fault api;
    api.service = "wikipedia";
    api.kind = "api_error";
    api.times = 1;
    fake.add_fault(api);
    BOOST_TEST(call(catalog, "wikipedia", {{"query", "Madrid"}}).is_error);
    BOOST_TEST(answer_of(call(catalog, "wikipedia", {{"query", "Madrid"}})).at("found").as_bool());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(tools_weather)

BOOST_FIXTURE_TEST_CASE(now_and_the_next_days_in_words, web)
{
    auto o = weather_options();
    o.texts = agentio::spanish_messages; // every WMO code has its Spanish words there
    agentio::toolset catalog{tools::weather(http, o)};
    auto const got = answer_of(call(catalog, "weather", {{"location", "Bilbao"}, {"days", 2}}));
    BOOST_TEST(got.at("found").as_bool());
    auto const& place = got.at("place").as_object();
    BOOST_TEST(place.at("name").as_string() == "Bilbao");
    BOOST_TEST(place.at("country").as_string() == "España");
    BOOST_TEST(place.at("timezone").as_string() == "Europe/Madrid");
    auto const& now = got.at("now").as_object();
    BOOST_TEST(now.at("temperature_c").is_double());
    BOOST_TEST(now.at("time").as_string().starts_with("2026-12-01T"));
    auto const& days = got.at("days").as_array();
    BOOST_TEST_REQUIRE(days.size() == 2u);
    BOOST_TEST(days[0].at("date").as_string() == "2026-12-01");
    BOOST_TEST(days[1].at("date").as_string() == "2026-12-02");
    for(auto const& d : days)
    {
        BOOST_TEST(d.at("max_c").as_double() >= d.at("min_c").as_double());
        auto const code = static_cast<int>(d.at("weather_code").to_number<double>());
        BOOST_TEST(d.at("sky").as_string() == tools::weather_words(code, o.texts)); // the application's words
    }
    BOOST_TEST(got.at("source").as_string() == "Weather data by Open-Meteo.com");
    BOOST_TEST(tools::weather_words(0, o.texts) == "despejado");
    BOOST_TEST(tools::weather_words(42, o.texts) == "desconocido");
    BOOST_TEST(tools::weather_words(99, o.texts) == "tormenta con granizo fuerte");
    BOOST_TEST(tools::weather_words(99, agentio::messages{}) == "thunderstorm with heavy hail");
}

BOOST_FIXTURE_TEST_CASE(a_shared_name_is_the_larger_place_or_a_question, web)
{
    agentio::toolset catalog{tools::weather(http, weather_options())};
    // Madrid, Spain, is far larger than Madrid, Iowa.
    auto const madrid = answer_of(call(catalog, "weather", {{"location", "Madrid"}}));
    BOOST_TEST(madrid.at("place").at("country_code").as_string() == "ES");
    auto const iowa = answer_of(call(catalog, "weather", {{"location", "Madrid, US"}}));
    BOOST_TEST(iowa.at("place").at("country_code").as_string() == "US");
    auto const chile = answer_of(call(catalog, "weather", {{"location", "Santiago, Chile"}}));
    BOOST_TEST(chile.at("place").at("country_code").as_string() == "CL");

    // Two Córdobas of comparable size: the model is asked which.
    auto world = json::parse(read_text(agentio_test::source_dir() + "/tests/web/world.json")).as_object();
    auto& places = world["places"].as_array();
    places.push_back(json::parse(R"({"id": 2519240, "name": "Córdoba", "latitude": 37.89155, "longitude": -4.77275,
        "feature_code": "PPLA2", "country_code": "ES", "country": "España", "admin1": "Andalucía",
        "timezone": "Europe/Madrid", "population": 325708})"));
    places.push_back(json::parse(R"({"id": 3860259, "name": "Córdoba", "latitude": -31.4135, "longitude": -64.18105,
        "feature_code": "PPLA", "country_code": "AR", "country": "Argentina", "admin1": "Córdoba",
        "timezone": "America/Argentina/Cordoba", "population": 1428214})"));
    fake.set_world(testing::parse_web_world(world));
    auto const which = answer_of(call(catalog, "weather", {{"location", "Córdoba"}}));
    BOOST_TEST(which.at("ambiguous").as_bool());
    BOOST_TEST(which.at("candidates").as_array().size() == 2u);
    BOOST_TEST(json::serialize(which.at("candidates")).find("Andalucía") != std::string::npos);
    auto const spain = answer_of(call(catalog, "weather", {{"location", "Córdoba, España"}}));
    BOOST_TEST(spain.at("place").at("region").as_string() == "Andalucía");
}

BOOST_FIXTURE_TEST_CASE(no_such_place_is_an_answer_and_bad_days_a_validation_error, web)
{
    agentio::toolset catalog{tools::weather(http, weather_options())};
    auto const nowhere = call(catalog, "weather", {{"location", "Xyzzyville"}});
    BOOST_TEST(!nowhere.is_error);
    BOOST_TEST(answer_of(nowhere).at("found").as_bool() == false);
    for(int days : {0, 30})
    {
        auto const r = call(catalog, "weather", {{"location", "Bilbao"}, {"days", days}});
        BOOST_TEST(r.is_error);
        BOOST_TEST(text_of(r).find("days") != std::string::npos, text_of(r));
    }
}

BOOST_FIXTURE_TEST_CASE(limits_overload_and_a_broken_stream_are_read_as_such, web)
{
    tools::weather tool(http, weather_options());
    agentio::toolset catalog{tool};
    testing::web_fault limited;
    limited.service = "forecast";
    limited.kind = "http_error";
    limited.status = 429;
    limited.retry_after_seconds = 1;
    limited.times = 1;
    fake.add_fault(limited);
    auto const began = std::chrono::steady_clock::now();
    BOOST_TEST(answer_of(call(catalog, "weather", {{"location", "Sevilla"}})).at("found").as_bool());
    BOOST_TEST((std::chrono::steady_clock::now() - began >= 1s)); // Retry-After was honoured
    BOOST_TEST(tool.forecast_service().stats().retries == 1u);

    fake.clear_faults();
    testing::web_fault overloaded;
    overloaded.service = "forecast";
    overloaded.kind = "http_error";
    overloaded.status = 503;
    fake.add_fault(overloaded);
    auto const down = call(catalog, "weather", {{"location", "Barcelona"}});
    BOOST_TEST(down.is_error);
    BOOST_TEST(text_of(down).find("HTTP 503: The service is overloaded") != std::string::npos, text_of(down));

    fake.clear_faults();
    testing::web_fault cut;
    cut.service = "forecast";
    cut.kind = "stream_error";
    fake.add_fault(cut);
    auto const broken = call(catalog, "weather", {{"location", "London"}});
    BOOST_TEST(broken.is_error);
    BOOST_TEST(text_of(broken).find("forecast answer is not JSON") != std::string::npos, text_of(broken));

    fake.clear_faults();
    testing::web_fault gone;
    gone.service = "geocoding";
    gone.kind = "disconnect";
    fake.add_fault(gone);
    auto const unreachable = call(catalog, "weather", {{"location", "Tokyo"}});
    BOOST_TEST(unreachable.is_error);
    BOOST_TEST(text_of(unreachable).find("Open-Meteo geocoding could not be reached") != std::string::npos,
        text_of(unreachable));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(tools_web_search)

BOOST_FIXTURE_TEST_CASE(tavily_with_its_answer_and_the_key_sent, web)
{
    agentio::toolset catalog{tools::web_search(http, search_options())};
    auto const got = answer_of(call(catalog, "web_search", {{"query", "¿Quién es Messi?"}, {"max_results", 3}}));
    BOOST_TEST(got.at("engine").as_string() == "tavily");
    BOOST_TEST(!got.at("answer").as_string().empty());
    auto const& results = got.at("results").as_array();
    BOOST_TEST_REQUIRE(!results.empty());
    BOOST_TEST(results.size() <= 3u);
    BOOST_TEST(results[0].at("url").as_string().starts_with("https://"));
    BOOST_TEST(results[0].at("score").is_double());
    auto const sent = fake.requests().back();
    BOOST_TEST(sent.service == "tavily");
    BOOST_TEST(std::string(sent.headers[boost::beast::http::field::authorization]) == "Bearer tvly-test");
    auto const body = json::parse(sent.body);
    BOOST_TEST(body.at("max_results").as_int64() == 3);
    BOOST_TEST(body.at("include_answer").as_bool());
}

BOOST_FIXTURE_TEST_CASE(without_a_key_or_with_a_bad_one_duckduckgos_page, web)
{
    agentio::toolset keyless{tools::web_search(http, search_options(""))};
    auto const got = answer_of(call(keyless, "web_search", {{"query", "messi"}}));
    BOOST_TEST(got.at("engine").as_string() == "duckduckgo");
    auto const& results = got.at("results").as_array();
    BOOST_TEST_REQUIRE(!results.empty());
    for(auto const& r : results)
    {
        // The redirect undone, the ad dropped.
        BOOST_TEST(r.at("url").as_string().find("duckduckgo.com") == std::string::npos);
        BOOST_TEST(!r.at("title").as_string().empty());
    }
    BOOST_TEST(requests_to("tavily") == 0u);

    agentio::toolset wrong{tools::web_search(http, search_options("tvly-wrong"))};
    auto const fell_back = answer_of(call(wrong, "web_search", {{"query", "messi"}}));
    BOOST_TEST(fell_back.at("engine").as_string() == "duckduckgo");
    BOOST_TEST(fell_back.at("note").as_string().find("Tavily answered HTTP 401") != std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(no_results_is_an_answer_from_either_engine, web)
{
    for(std::string key : {"tvly-test", ""})
    {
        agentio::toolset catalog{tools::web_search(http, search_options(key))};
        auto const r = call(catalog, "web_search", {{"query", "qwxzv plmokn"}});
        BOOST_TEST(!r.is_error, text_of(r));
        BOOST_TEST(answer_of(r).at("results").as_array().empty());
    }
}

BOOST_FIXTURE_TEST_CASE(a_blocked_fallback_or_none_configured_is_said, web)
{
    testing::web_fault blocked;
    blocked.service = "duckduckgo";
    blocked.kind = "blocked";
    fake.add_fault(blocked);
    agentio::toolset keyless{tools::web_search(http, search_options(""))};
    auto const refused = call(keyless, "web_search", {{"query", "messi"}});
    BOOST_TEST(refused.is_error);
    BOOST_TEST(text_of(refused).find("challenge page") != std::string::npos, text_of(refused));

    auto o = search_options("");
    o.fallback_url.clear();
    agentio::toolset none{tools::web_search(http, o)};
    auto const unconfigured = call(none, "web_search", {{"query", "messi"}});
    BOOST_TEST(unconfigured.is_error);
    BOOST_TEST(text_of(unconfigured).find("TAVILY_API_KEY") != std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(a_rate_limit_is_waited_out_and_a_bad_count_refused, web)
{
    testing::web_fault limited;
    limited.service = "tavily";
    limited.kind = "http_error";
    limited.status = 429;
    limited.retry_after_seconds = 1;
    limited.times = 1;
    fake.add_fault(limited);
    tools::web_search search(http, search_options());
    agentio::toolset catalog{search};
    BOOST_TEST(answer_of(call(catalog, "web_search", {{"query", "boost asio"}})).at("engine").as_string() == "tavily");
    BOOST_TEST(search.tavily_service().stats().retries == 1u);
    auto const r = call(catalog, "web_search", {{"query", "boost asio"}, {"max_results", 0}});
    BOOST_TEST(r.is_error);
    BOOST_TEST(text_of(r).find("max_results") != std::string::npos, text_of(r));
}

BOOST_AUTO_TEST_CASE(duckduckgos_markup_read_with_a_parser)
{
    std::string const page = R"(<!DOCTYPE html><html><body><div id="links" class="results">
<div class="result results_links results_links_deep result--ad"><div class="links_main">
<h2 class="result__title"><a class="result__a" href="https://duckduckgo.com/y.js?ad_domain=shop.example">Buy &amp; save</a></h2></div></div>
<div class="result results_links results_links_deep web-result "><div class="links_main links_deep result__body">
<h2 class="result__title"><a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fes.wikipedia.org%2Fwiki%2FLionel_Messi&amp;rut=9c1e">Lionel <b>Messi</b> - Wikipedia</a></h2>
<a class="result__snippet" href="#">Lionel Andrés <b>Messi</b>   Cuccittini es un futbolista &amp; capitán.</a></div></div>
<div class="result results_links web-result"><h2 class="result__title"><a class="result__a" href="https://example.org/direct">Direct link</a></h2>
<div class="result__snippet">A snippet in a div</div></div>
<div class="result results_links web-result"><h2 class="result__title"><a class="result__a" href="//duckduckgo.com/l/?rut=1">No target</a></h2></div>
</div></body></html>)";
    auto const read = tools::detail::read_results_page(page, 200);
    BOOST_TEST((read.what == tools::detail::results_page::kind::results));
    BOOST_TEST_REQUIRE(read.cards.size() == 2u);
    BOOST_TEST(read.cards[0].title == "Lionel Messi - Wikipedia");
    BOOST_TEST(read.cards[0].url == "https://es.wikipedia.org/wiki/Lionel_Messi");
    BOOST_TEST(read.cards[0].snippet == "Lionel Andrés Messi Cuccittini es un futbolista & capitán.");
    BOOST_TEST(read.cards[1].url == "https://example.org/direct");
    BOOST_TEST(read.cards[1].snippet == "A snippet in a div");

    auto const none = tools::detail::read_results_page(
        R"(<div id="links" class="results"><div class="result results_links result--no-result"><h2 class="result__title"></h2><div class="no-results">No more results.</div></div></div>)",
        200);
    BOOST_TEST((none.what == tools::detail::results_page::kind::no_results));
    auto const anomaly = tools::detail::read_results_page(
        R"(<html><body><div data-testid="anomaly-modal"><form id="challenge-form" action="//duckduckgo.com/anomaly.js?sv=html"></form></div></body></html>)",
        200);
    BOOST_TEST((anomaly.what == tools::detail::results_page::kind::blocked));
    BOOST_TEST((tools::detail::read_results_page("<html><body>Hello</body></html>", 200).what ==
        tools::detail::results_page::kind::unrecognized));
    // A page cut inside a card: gumbo closes it; a card without its link is not kept.
    auto const cut = tools::detail::read_results_page(page.substr(0, page.find("Direct link") - 20), 200);
    BOOST_TEST(cut.cards.size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(tools_settings)

BOOST_AUTO_TEST_CASE(the_variables_point_the_tools_at_their_services)
{
    std::map<std::string, std::string> vars = {{"TAVILY_API_KEY", "tvly-1"},
        {"TAVILY_BASE_URL", "http://127.0.0.1:9/tavily"}, {"WIKIPEDIA_API_URL", "http://127.0.0.1:9/{lang}/w/api.php"},
        {"OPEN_METEO_GEOCODING_URL", "http://127.0.0.1:9/v1/search"},
        {"OPEN_METEO_FORECAST_URL", "https://proxy.example/v1/forecast"}};
    auto lookup = [&](char const* name) -> std::optional<std::string> {
        auto it = vars.find(name);
        return it == vars.end() || it->second.empty() ? std::nullopt : std::optional<std::string>(it->second);
    };
    auto const read = tools::web_tools_from_environment(lookup);
    BOOST_TEST_REQUIRE(read.has_value());
    BOOST_TEST(read->web_search.tavily_api_key == "tvly-1");
    BOOST_TEST(read->web_search.tavily_base_url == "http://127.0.0.1:9/tavily");
    BOOST_TEST(read->web_search.fallback_url == "https://html.duckduckgo.com/html/"); // the default
    BOOST_TEST(read->wikipedia.api_url == "http://127.0.0.1:9/{lang}/w/api.php");
    BOOST_TEST(read->weather.geocoding_url == "http://127.0.0.1:9/v1/search");
    BOOST_TEST(read->weather.forecast_url == "https://proxy.example/v1/forecast");

    vars["WEB_SEARCH_FALLBACK_URL"] = "off";
    BOOST_TEST(tools::web_tools_from_environment(lookup)->web_search.fallback_url.empty());
    vars["WIKIPEDIA_API_URL"] = "ftp://wiki";
    auto const bad = tools::web_tools_from_environment(lookup);
    BOOST_TEST_REQUIRE(bad.has_error());
    BOOST_TEST(agentio::to_string(bad.error()).starts_with("WIKIPEDIA_API_URL: expected"));
}

// In the process's environment, set-and-empty turns the fallback off (scripts write `WEB_SEARCH_FALLBACK_URL=`);
// through another lookup empty is unset, and the default stays.
BOOST_AUTO_TEST_CASE(an_empty_fallback_in_the_environment_is_none)
{
    ::setenv("WEB_SEARCH_FALLBACK_URL", "", 1);
    auto const from_process = tools::web_tools_from_environment();
    auto const through_lookup = tools::web_tools_from_environment(agentio::process_environment);
    auto const through_other = tools::web_tools_from_environment([](char const* name) {
        return agentio::process_environment(name);
    });
    ::unsetenv("WEB_SEARCH_FALLBACK_URL");
    BOOST_TEST_REQUIRE(from_process.has_value());
    BOOST_TEST(from_process->web_search.fallback_url.empty());
    BOOST_TEST(through_lookup->web_search.fallback_url.empty());
    BOOST_TEST(through_other->web_search.fallback_url == "https://html.duckduckgo.com/html/");
    BOOST_TEST(tools::web_tools_from_environment()->web_search.fallback_url == "https://html.duckduckgo.com/html/");
}

BOOST_AUTO_TEST_SUITE_END()
