// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The fake web services on the wire, through a raw Beast client: each
// service's shapes as docs/notes/web-tools-plan.md describes them (keys,
// their order and types, statuses, headers), the empty and special answers,
// the User-Agent policy, every fault kind, the world file and the program.

// Test that header file is self-contained.
#include <agentio/testing/fake_web.hpp>

#include <agentio/json_text.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include "test_paths.hpp"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace json = boost::json;
namespace fake = agentio::testing;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

std::string world_file()
{
    return agentio_test::in_source("tests/web/world.json");
}

// --- the fake on its own thread --------------------------------------------------

struct running_web
{
    asio::io_context ioc;
    std::optional<fake::fake_web> web;
    tcp::endpoint ep;
    std::thread thread;

    explicit running_web(fake::fake_web_options options = {})
    {
        web.emplace(ioc.get_executor(), std::move(options));
        web->set_world(fake::read_web_world(world_file()));
        ep = web->start().value();
        thread = std::thread([this] { ioc.run(); });
    }

    ~running_web()
    {
        web->stop();
        ioc.stop();
        thread.join();
        web.reset();
    }

    void fault(std::string service, std::string kind, unsigned status = 500, std::size_t times = 0)
    {
        fake::web_fault f;
        f.service = std::move(service);
        f.kind = std::move(kind);
        f.status = status;
        f.times = times;
        web->add_fault(f);
    }
};

// --- a raw Beast client --------------------------------------------------------

struct reply
{
    unsigned status = 0;
    http::fields headers;
    std::string body;
    bool complete = false;   // the body ended as HTTP says
    beast::error_code error; // what ended reading otherwise

    json::value json() const { return json::parse(body); }
    std::string header(std::string_view name) const
    {
        auto const it = headers.find(name);
        return it == headers.end() ? std::string() : std::string(it->value());
    }
};

using header_list = std::vector<std::pair<std::string, std::string>>;

constexpr char const* good_agent = "agentio-tests/1.0 (https://example.org/agentio; tests@example.org) Boost.Beast/345";

asio::awaitable<reply> exchange(tcp::endpoint ep, http::verb method, std::string target, std::string body,
    header_list headers, std::chrono::milliseconds timeout)
{
    reply r;
    beast::tcp_stream s(co_await asio::this_coro::executor);
    s.expires_after(timeout);
    if(auto [ec] = co_await s.async_connect(ep, use_tuple); ec)
    {
        r.error = ec;
        co_return r;
    }
    http::request<http::string_body> req{method, target, 11};
    req.set(http::field::host, "127.0.0.1");
    for(auto const& [name, value] : headers)
        req.set(name, value);
    req.body() = std::move(body);
    req.prepare_payload();
    if(auto [ec, n] = co_await http::async_write(s, req, use_tuple); ec)
    {
        r.error = ec;
        co_return r;
    }
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(16 * 1024 * 1024);
    auto [ec, n] = co_await http::async_read(s, buffer, parser, use_tuple);
    r.error = ec;
    r.complete = parser.is_done();
    if(parser.is_header_done())
    {
        auto const& res = parser.get();
        r.status = res.result_int();
        for(auto const& f : res)
            r.headers.insert(f.name_string(), f.value());
        r.body = res.body();
    }
    co_return r;
}

reply send(tcp::endpoint ep, http::verb method, std::string target, std::string body = {}, header_list headers = {},
    std::chrono::milliseconds timeout = 10s)
{
    asio::io_context ioc;
    reply r;
    asio::co_spawn(ioc, exchange(ep, method, std::move(target), std::move(body), std::move(headers), timeout),
        [&](std::exception_ptr e, reply got) {
            if(e)
                std::rethrow_exception(e);
            r = std::move(got);
        });
    ioc.run();
    return r;
}

reply get(tcp::endpoint ep, std::string target, header_list headers = {{"user-agent", good_agent}},
    std::chrono::milliseconds timeout = 10s)
{
    return send(ep, http::verb::get, std::move(target), {}, std::move(headers), timeout);
}

reply tavily(tcp::endpoint ep, json::value const& body, std::string key = "tvly-test")
{
    header_list h{{"content-type", "application/json"}};
    if(!key.empty())
        h.emplace_back("authorization", "Bearer " + key);
    return send(ep, http::verb::post, "/search", agentio::to_json_text(body), std::move(h));
}

std::vector<std::string> keys_of(json::object const& o)
{
    std::vector<std::string> keys;
    for(auto const& kv : o)
        keys.emplace_back(kv.key());
    return keys;
}

using keys = std::vector<std::string>;

std::size_t count_of(std::string const& hay, std::string_view needle)
{
    std::size_t n = 0;
    for(auto at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1))
        ++n;
    return n;
}

} // namespace

// ================================================================================

BOOST_AUTO_TEST_SUITE(fake_web_world)

BOOST_AUTO_TEST_CASE(the_default_world_file_parses_with_what_the_tools_need)
{
    auto const w = fake::read_web_world(world_file());
    auto const& d = w.data;
    BOOST_TEST(d.at("search").as_array().size() >= 3u);
    std::set<std::string> searches;
    for(auto const& s : d.at("search").as_array())
        searches.insert(std::string(s.at("when_query_contains").as_string()));
    BOOST_TEST((searches.count("messi") && searches.count("boost asio") && searches.count("noticias")));
    std::set<std::string> es, en;
    for(auto const& p : d.at("wikipedia").at("es").as_array())
        es.insert(std::string(p.at("title").as_string()));
    for(auto const& p : d.at("wikipedia").at("en").as_array())
        en.insert(std::string(p.at("title").as_string()));
    for(auto t : {"Bilbao", "Madrid", "Mercurio", "Mercurio (planeta)", "Lionel Messi"})
        BOOST_TEST(es.count(t) == 1u, t);
    for(auto t : {"Madrid", "Bilbao", "Boost (C++ libraries)"})
        BOOST_TEST(en.count(t) == 1u, t);
    std::set<std::string> places;
    for(auto const& p : d.at("places").as_array())
        places.insert(std::string(p.at("name").as_string()) + "/" + std::string(p.at("country_code").as_string()));
    for(auto t : {"Bilbao/ES", "Madrid/ES", "Madrid/US", "Sevilla/ES", "Barcelona/ES", "London/GB", "Tokyo/JP",
            "Santiago/CL", "Santiago de Compostela/ES"})
        BOOST_TEST(places.count(t) == 1u, t);
}

BOOST_AUTO_TEST_CASE(a_bad_world_is_refused_naming_the_key)
{
    auto problem = [](std::string_view text) -> std::string {
        try
        {
            fake::parse_web_world(json::parse(text));
        }
        catch(fake::web_world_error const& e)
        {
            return e.pointer() + " | " + e.what();
        }
        return "accepted";
    };
    BOOST_TEST(problem(R"({"serch": []})") == "/serch | /serch: unknown key");
    BOOST_TEST(problem(R"({"places": [{"id": 1, "name": "X", "latitude": 91, "longitude": 0}]})") ==
        "/places/0/latitude | /places/0/latitude: must be between -90.0 and 90.0");
    BOOST_TEST(problem(R"({"places": [{"id": 1, "name": "X", "latitude": 1, "longitude": 0, "country_code": "es"}]})")
                   .starts_with("/places/0/country_code | "));
    BOOST_TEST(problem(R"({"wikipedia": {"es": [{"title": "A"}]}})") ==
        "/wikipedia/es/0 | /wikipedia/es/0: missing required key 'extract'");
    BOOST_TEST(problem(R"({"search": [{"when_query_contains": "x", "results": [{"title": "t", "url": "nohost"}]}]})") ==
        "/search/0/results/0/url | /search/0/results/0/url: must be an absolute URL with a host");
    BOOST_TEST(problem(R"({"faults": [{"service": "tavily", "kind": "blocked"}]})") ==
        "/faults/0 | /faults/0: kind 'blocked' is DuckDuckGo's");
    BOOST_TEST(problem(R"({"faults": [{"service": "bing", "kind": "stall"}]})").starts_with("/faults/0 | "));
    BOOST_TEST(problem(R"({"faults": [{"service": "forecast", "kind": "stream_error", "times": 2}]})") == "accepted");
}

BOOST_AUTO_TEST_CASE(faults_and_options_are_checked_when_given)
{
    asio::io_context ioc;
    fake::fake_web web(ioc.get_executor());
    fake::web_fault f;
    f.service = "wikipedia";
    f.kind = "stream_error";
    BOOST_CHECK_THROW(web.add_fault(f), std::invalid_argument);
    f.kind = "explode";
    BOOST_CHECK_THROW(web.add_fault(f), std::invalid_argument);
    f.kind = "api_error";
    BOOST_CHECK_NO_THROW(web.add_fault(f));
    fake::fake_web_options bad;
    bad.today = "2026-02-30";
    BOOST_CHECK_THROW(fake::fake_web(ioc.get_executor(), bad), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(the_urls_point_at_each_service)
{
    running_web w;
    std::string const base = "http://127.0.0.1:" + std::to_string(w.ep.port());
    BOOST_TEST(w.web->base_url() == base);
    BOOST_TEST(w.web->tavily_base_url() == base);
    BOOST_TEST(w.web->duckduckgo_url() == base + "/html/");
    BOOST_TEST(w.web->wikipedia_api_url() == base + "/{lang}/w/api.php");
    BOOST_TEST(w.web->geocoding_url() == base + "/v1/search");
    BOOST_TEST(w.web->forecast_url() == base + "/v1/forecast");
    auto const r = get(w.ep, "/nowhere");
    BOOST_TEST(r.status == 404u);
    auto const requests = w.web->requests();
    BOOST_TEST_REQUIRE(requests.size() == 1u);
    BOOST_TEST(requests[0].service == "");
    BOOST_TEST(requests[0].target == "/nowhere");
}

#if defined(AGENTIO_TEST_FAKE_WEB_PROGRAM)
// The installed program: its lines, and a service answering at the URL it prints.
BOOST_AUTO_TEST_CASE(the_program_prints_its_url_and_the_variables)
{
    std::string const exe = agentio_test::in_build("bench/agentio-fake-web");
    BOOST_TEST_REQUIRE(std::filesystem::exists(exe), exe << " is built with agentio_fake_web_tests");
    int out[2];
    BOOST_TEST_REQUIRE(::pipe(out) == 0);
    pid_t const pid = ::fork();
    BOOST_TEST_REQUIRE(pid >= 0);
    if(pid == 0)
    {
        ::dup2(out[1], 1);
        ::close(out[0]);
        ::close(out[1]);
        std::string const world = world_file();
        ::execl(exe.c_str(), exe.c_str(), "--world", world.c_str(), "--port", "0", static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::close(out[1]);
    FILE* lines = ::fdopen(out[0], "r");
    std::vector<std::string> got;
    char line[512];
    while(got.size() < 6 && std::fgets(line, sizeof line, lines))
    {
        std::string l = line;
        if(!l.empty() && l.back() == '\n')
            l.pop_back();
        got.push_back(l);
    }
    std::smatch m;
    bool const listening = !got.empty() &&
        std::regex_match(got[0], m, std::regex(R"(agentio-fake-web listening on (http://127\.0\.0\.1:(\d+)))"));
    std::string const url = listening ? m[1].str() : std::string();
    unsigned short const port = listening ? static_cast<unsigned short>(std::stoi(m[2].str())) : 0;
    reply r;
    if(listening)
        r = get(tcp::endpoint(asio::ip::address_v4::loopback(), port), "/v1/search?name=Bilbao");
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    std::fclose(lines);

    BOOST_TEST_REQUIRE(listening, (got.empty() ? std::string("(nothing printed)") : got[0]));
    BOOST_TEST_REQUIRE(got.size() == 6u);
    BOOST_TEST(got[1] == "TAVILY_BASE_URL=" + url);
    BOOST_TEST(got[2] == "WEB_SEARCH_FALLBACK_URL=" + url + "/html/");
    BOOST_TEST(got[3] == "WIKIPEDIA_API_URL=" + url + "/{lang}/w/api.php");
    BOOST_TEST(got[4] == "OPEN_METEO_GEOCODING_URL=" + url + "/v1/search");
    BOOST_TEST(got[5] == "OPEN_METEO_FORECAST_URL=" + url + "/v1/forecast");
    BOOST_TEST(r.status == 200u);
    BOOST_TEST(r.body.find("\"name\":\"Bilbao\"") != std::string::npos, r.body);
    BOOST_TEST(WIFEXITED(status));
}
#endif

BOOST_AUTO_TEST_SUITE_END()

// ================================================================================

BOOST_AUTO_TEST_SUITE(fake_web_tavily)

BOOST_AUTO_TEST_CASE(an_answer_in_the_apis_shape)
{
    running_web w;
    auto const r = tavily(w.ep,
        {{"query", "¿Quién es Lionel Messi?"}, {"max_results", 3}, {"search_depth", "basic"}, {"topic", "general"},
            {"include_answer", true}});
    BOOST_TEST(r.status == 200u);
    BOOST_TEST(r.header("content-type") == "application/json; charset=utf-8");
    auto const body = r.json().as_object();
    BOOST_TEST((keys_of(body) ==
        keys{"query", "follow_up_questions", "answer", "images", "results", "response_time", "request_id"}));
    BOOST_TEST(body.at("query").as_string() == "¿Quién es Lionel Messi?");
    BOOST_TEST(body.at("follow_up_questions").is_null());
    BOOST_TEST(body.at("answer").as_string().starts_with("Lionel Messi es un futbolista argentino"));
    BOOST_TEST(body.at("images").as_array().empty());
    BOOST_TEST(body.at("response_time").is_double());
    BOOST_TEST(std::regex_match(std::string(body.at("request_id").as_string()),
        std::regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")));
    auto const& results = body.at("results").as_array();
    BOOST_TEST_REQUIRE(results.size() == 3u); // of 4 in the world
    auto const& first = results[0].as_object();
    BOOST_TEST((keys_of(first) == keys{"title", "url", "content", "score", "raw_content"}));
    BOOST_TEST(first.at("url").as_string() == "https://es.wikipedia.org/wiki/Lionel_Messi");
    BOOST_TEST(first.at("score").as_double() == 0.8102);
    BOOST_TEST(first.at("raw_content").is_null());

    // What was sent is recorded.
    auto const requests = w.web->requests();
    BOOST_TEST_REQUIRE(requests.size() == 1u);
    BOOST_TEST(requests[0].service == "tavily");
    BOOST_TEST(requests[0].method == "POST");
    BOOST_TEST(std::string(requests[0].headers[http::field::authorization]) == "Bearer tvly-test");
    BOOST_TEST(json::parse(requests[0].body).at("max_results").as_int64() == 3);
}

BOOST_AUTO_TEST_CASE(no_answer_unless_asked_and_nothing_found_is_empty)
{
    running_web w;
    auto const plain = tavily(w.ep, {{"query", "messi"}}).json();
    BOOST_TEST(plain.at("answer").is_null());
    BOOST_TEST(plain.at("results").as_array().size() == 4u); // default max_results 5
    auto const basic = tavily(w.ep, {{"query", "messi"}, {"include_answer", "advanced"}}).json();
    BOOST_TEST(basic.at("answer").is_string());
    auto const none = tavily(w.ep, {{"query", "qwxzv plmokn"}, {"include_answer", true}});
    BOOST_TEST(none.status == 200u);
    BOOST_TEST(none.json().at("results").as_array().empty());
    BOOST_TEST(none.json().at("answer").is_null());
    BOOST_TEST(tavily(w.ep, {{"query", "messi"}, {"max_results", 1}}).json().at("results").as_array().size() == 1u);
}

BOOST_AUTO_TEST_CASE(domains_are_kept_or_left_out_by_host)
{
    running_web w;
    auto const only = tavily(w.ep, {{"query", "messi"}, {"include_domains", json::array{"wikipedia.org"}}}).json();
    BOOST_TEST_REQUIRE(only.at("results").as_array().size() == 2u);
    for(auto const& r : only.at("results").as_array())
        BOOST_TEST(r.at("url").as_string().find("wikipedia.org/") != std::string::npos);
    auto const without =
        tavily(w.ep, {{"query", "messi"}, {"exclude_domains", json::array{"es.wikipedia.org", "marca.com"}}}).json();
    BOOST_TEST_REQUIRE(without.at("results").as_array().size() == 2u);
    BOOST_TEST(without.at("results").at(0).at("url").as_string() == "https://en.wikipedia.org/wiki/Lionel_Messi");
    BOOST_TEST(without.at("results").at(1).at("url").as_string().starts_with("https://www.transfermarkt.es/"));
}

BOOST_AUTO_TEST_CASE(news_results_carry_their_date)
{
    running_web w;
    auto const r = tavily(w.ep, {{"query", "noticias de hoy"}, {"topic", "news"}}).json();
    BOOST_TEST(r.at("results").at(0).at("published_date").as_string() == "Tue, 01 Dec 2026 08:30:00 GMT");
    auto const general = tavily(w.ep, {{"query", "noticias de hoy"}}).json();
    BOOST_TEST(!general.at("results").at(0).as_object().contains("published_date"));
}

BOOST_AUTO_TEST_CASE(a_missing_or_wrong_key_and_bad_bodies_are_refused)
{
    running_web w;
    for(std::string key : {"", "tvly-wrong"})
    {
        auto const r = tavily(w.ep, {{"query", "messi"}}, key);
        BOOST_TEST(r.status == 401u);
        BOOST_TEST(r.body == R"({"detail":{"error":"Unauthorized: missing or invalid API key"}})");
    }
    auto const broken = send(w.ep, http::verb::post, "/search",
        "{\"query\": ", {{"authorization", "Bearer tvly-test"}, {"content-type", "application/json"}});
    BOOST_TEST(broken.status == 400u);
    BOOST_TEST(broken.json().at("detail").at("error").is_string());
    auto const no_query = tavily(w.ep, {{"max_results", 3}});
    BOOST_TEST(no_query.status == 400u);
    BOOST_TEST(no_query.json().at("detail").at("error").as_string() == "Query is missing.");
    BOOST_TEST(tavily(w.ep, {{"query", "x"}, {"topic", "sports"}}).status == 400u);
    BOOST_TEST(tavily(w.ep, {{"query", "x"}, {"max_results", 21}}).status == 400u);
    BOOST_TEST(send(w.ep, http::verb::get, "/search").status == 405u);
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================================

BOOST_AUTO_TEST_SUITE(fake_web_duckduckgo)

BOOST_AUTO_TEST_CASE(a_results_page_with_an_ad_first_and_redirected_links)
{
    running_web w;
    auto const r = get(w.ep, "/html/?q=lionel+messi");
    BOOST_TEST(r.status == 200u);
    BOOST_TEST(r.header("content-type") == "text/html; charset=UTF-8");
    auto const& page = r.body;
    auto const links = page.find("<div id=\"links\" class=\"results\">");
    BOOST_TEST_REQUIRE(links != std::string::npos);
    auto const ad = page.find("class=\"result results_links results_links_deep result--ad \"");
    auto const first = page.find("class=\"result results_links results_links_deep web-result \"");
    BOOST_TEST_REQUIRE(ad != std::string::npos);
    BOOST_TEST((links < ad && ad < first));
    BOOST_TEST(page.find("href=\"https://duckduckgo.com/y.js?ad_domain=", ad) < first);
    BOOST_TEST(count_of(page, "web-result ") == 4u);
    BOOST_TEST(
        page.find("<a rel=\"nofollow\" class=\"result__a\" "
                  "href=\"//duckduckgo.com/l/?uddg=https%3A%2F%2Fes.wikipedia.org%2Fwiki%2FLionel_Messi&amp;rut=") !=
        std::string::npos);
    BOOST_TEST(std::regex_search(page, std::regex("&amp;rut=[0-9a-f]{64}\">")));
    BOOST_TEST(page.find("><b>Lionel</b> <b>Messi</b> - Wikipedia, la enciclopedia libre</a>") != std::string::npos);
    BOOST_TEST(page.find("class=\"result__url\"") != std::string::npos);
    BOOST_TEST(page.find("es.wikipedia.org/wiki/Lionel_Messi\n") != std::string::npos);
    BOOST_TEST(page.find("<a class=\"result__snippet\" href=\"//duckduckgo.com/l/?uddg=") != std::string::npos);
    BOOST_TEST(page.find("<b>Lionel</b> Andrés <b>Messi</b> Cuccittini") != std::string::npos);
    BOOST_TEST(page.find("result--no-result") == std::string::npos);
    BOOST_TEST(page.find("<title>lionel messi at DuckDuckGo</title>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_posted_form_gets_the_same_page)
{
    running_web w;
    auto const posted = send(w.ep, http::verb::post, "/html/", "q=boost+asio&b=&kl=wt-wt",
        {{"content-type", "application/x-www-form-urlencoded"}});
    BOOST_TEST(posted.status == 200u);
    BOOST_TEST(posted.body.find("uddg=https%3A%2F%2Fthink-async.com%2FAsio%2F&amp;rut=") != std::string::npos);
    BOOST_TEST(posted.body == get(w.ep, "/html/?q=boost%20asio").body);
}

BOOST_AUTO_TEST_CASE(nothing_found_is_the_no_results_card)
{
    running_web w;
    auto const r = get(w.ep, "/html/?q=qwxzv+plmokn");
    BOOST_TEST(r.status == 200u);
    BOOST_TEST(r.body.find("<div class=\"result results_links results_links_deep result--no-result\">") !=
        std::string::npos);
    BOOST_TEST(r.body.find("<div class=\"no-results\">No more results.</div>") != std::string::npos);
    BOOST_TEST(r.body.find("result__a") == std::string::npos);
    BOOST_TEST(r.body.find("result--ad") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================================

BOOST_AUTO_TEST_SUITE(fake_web_mediawiki)

constexpr char const* extract_query = "/es/w/api.php?action=query&prop=extracts%7Cinfo%7Cpageprops&exsentences=2"
                                      "&explaintext=1&exsectionformat=plain&inprop=url&ppprop=disambiguation"
                                      "&redirects=1&format=json&formatversion=2&titles=";

BOOST_AUTO_TEST_CASE(the_user_agent_policy_is_enforced)
{
    running_web w;
    std::string const target = "/es/w/api.php?action=query&list=search&srsearch=Bilbao&format=json&formatversion=2";
    for(header_list h : {header_list{}, header_list{{"user-agent", "agentio/0.2.0"}},
            header_list{{"user-agent", "python-requests/2.31"}}, header_list{{"user-agent", "curl/8.0"}},
            header_list{{"user-agent", "Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101"}}})
    {
        auto const r = get(w.ep, target, h);
        BOOST_TEST(r.status == 403u);
        BOOST_TEST(r.header("content-type") == "text/html; charset=UTF-8");
        BOOST_TEST(r.body.find("Please set a user-agent and respect our robot policy https://w.wiki/4wJS") !=
            std::string::npos);
    }
    for(auto const* ua : {good_agent, "Bot/0.1 (bot@example.org)", "Tool/2 (https://example.org/tool)"})
        BOOST_TEST(get(w.ep, target, {{"user-agent", ua}}).status == 200u, ua);
}

BOOST_AUTO_TEST_CASE(search_hits_with_snippets_totals_and_continue)
{
    running_web w;
    auto const r = get(w.ep,
        "/es/w/api.php?action=query&list=search&srsearch=capital%20Vizcaya&srlimit=1"
        "&format=json&formatversion=2");
    BOOST_TEST(r.status == 200u);
    BOOST_TEST(r.header("content-type") == "application/json; charset=utf-8");
    BOOST_TEST(r.header("MediaWiki-API-Error").empty());
    auto const body = r.json().as_object();
    BOOST_TEST((keys_of(body) == keys{"batchcomplete", "continue", "query"}));
    BOOST_TEST(body.at("batchcomplete").as_bool());
    BOOST_TEST(body.at("continue").at("sroffset").as_int64() == 1);
    BOOST_TEST(body.at("continue").at("continue").as_string() == "-||");
    BOOST_TEST(body.at("query").at("searchinfo").at("totalhits").as_int64() == 2); // Bilbao (both words), Madrid (one)
    auto const& hits = body.at("query").at("search").as_array();
    BOOST_TEST_REQUIRE(hits.size() == 1u);
    auto const& hit = hits[0].as_object();
    BOOST_TEST((keys_of(hit) == keys{"ns", "title", "pageid", "size", "wordcount", "snippet", "timestamp"}));
    BOOST_TEST(hit.at("title").as_string() == "Bilbao");
    BOOST_TEST(hit.at("pageid").is_int64());
    BOOST_TEST(hit.at("snippet").as_string().starts_with("Es la <span class=\"searchmatch\">capital</span> de la "
                                                         "provincia de <span class=\"searchmatch\">Vizcaya</span>,"));
    BOOST_TEST(std::regex_match(std::string(hit.at("timestamp").as_string()),
        std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));

    // Titles first among equals; no continue once all is sent; version 1's flags.
    auto const mercurio =
        get(w.ep, "/es/w/api.php?action=query&list=search&srsearch=mercurio&srprop=snippet&format=json").json();
    BOOST_TEST(mercurio.at("batchcomplete").as_string() == "");
    BOOST_TEST(!mercurio.as_object().contains("continue"));
    auto const& list = mercurio.at("query").at("search").as_array();
    BOOST_TEST_REQUIRE(list.size() == 4u);
    BOOST_TEST(list[0].at("title").as_string() == "Mercurio");
    BOOST_TEST(list[1].at("title").as_string() == "Mercurio (planeta)");
    BOOST_TEST((keys_of(list[0].as_object()) == keys{"ns", "title", "pageid", "snippet"}));

    auto const none =
        get(w.ep, "/es/w/api.php?action=query&list=search&srsearch=xyzzyquux&format=json&formatversion=2").json();
    BOOST_TEST(none.at("query").at("search").as_array().empty());
    BOOST_TEST(none.at("query").at("searchinfo").at("totalhits").as_int64() == 0);
    BOOST_TEST(!none.at("query").at("searchinfo").as_object().contains("suggestion"));
}

BOOST_AUTO_TEST_CASE(an_extract_of_n_sentences_with_its_info)
{
    running_web w;
    auto const body = get(w.ep, std::string(extract_query) + "Bilbao").json().as_object();
    BOOST_TEST((keys_of(body) == keys{"batchcomplete", "query"}));
    auto const& pages = body.at("query").at("pages").as_array();
    BOOST_TEST_REQUIRE(pages.size() == 1u);
    auto const& page = pages[0].as_object();
    BOOST_TEST(page.at("title").as_string() == "Bilbao");
    BOOST_TEST(page.at("ns").as_int64() == 0);
    BOOST_TEST(page.at("pageid").is_int64());
    BOOST_TEST(page.at("extract").as_string() ==
        "Bilbao es un municipio y una villa de España, situado en el norte de la península ibérica. Es la capital de "
        "la provincia de Vizcaya, en la comunidad autónoma del País Vasco.");
    BOOST_TEST(page.at("contentmodel").as_string() == "wikitext");
    BOOST_TEST(page.at("pagelanguage").as_string() == "es");
    BOOST_TEST(page.at("fullurl").as_string() == "https://es.wikipedia.org/wiki/Bilbao");
    BOOST_TEST(page.at("canonicalurl").as_string() == "https://es.wikipedia.org/wiki/Bilbao");
    BOOST_TEST(page.at("editurl").as_string() == "https://es.wikipedia.org/w/index.php?title=Bilbao&action=edit");
    BOOST_TEST(!page.contains("pageprops"));
    BOOST_TEST(!page.contains("missing"));

    // Without explaintext: TextExtracts' limited HTML.
    auto const html = get(w.ep,
        "/es/w/api.php?action=query&prop=extracts&exsentences=1&format=json&formatversion=2"
        "&titles=Madrid")
                          .json();
    BOOST_TEST(html.at("query").at("pages").at(0).at("extract").as_string() ==
        "<p>Madrid es un municipio y una ciudad de España.</p>");
}

BOOST_AUTO_TEST_CASE(redirects_normalization_disambiguation_and_urls)
{
    running_web w;
    auto const redirected = get(w.ep, std::string(extract_query) + "Bilbo").json();
    BOOST_TEST(agentio::to_json_text(redirected.at("query").at("redirects")) == R"([{"from":"Bilbo","to":"Bilbao"}])");
    BOOST_TEST(redirected.at("query").at("pages").at(0).at("title").as_string() == "Bilbao");

    auto const normalized = get(w.ep, std::string(extract_query) + "lionel_Messi").json();
    BOOST_TEST(agentio::to_json_text(normalized.at("query").at("normalized")) ==
        R"([{"fromencoded":false,"from":"lionel_Messi","to":"Lionel Messi"}])");
    BOOST_TEST(normalized.at("query").at("pages").at(0).at("fullurl").as_string() ==
        "https://es.wikipedia.org/wiki/Lionel_Messi");

    auto const meanings = get(w.ep, std::string(extract_query) + "Mercurio").json();
    BOOST_TEST(agentio::to_json_text(meanings.at("query").at("pages").at(0).at("pageprops")) ==
        R"({"disambiguation":""})");
    auto const planet = get(w.ep, std::string(extract_query) + "Mercurio%20(planeta)").json();
    BOOST_TEST(planet.at("query").at("pages").at(0).at("fullurl").as_string() ==
        "https://es.wikipedia.org/wiki/Mercurio_(planeta)");
    BOOST_TEST(!planet.at("query").at("pages").at(0).as_object().contains("pageprops"));

    // /w/api.php is English; '+' is percent-encoded in the URL, as Wikipedia writes it.
    auto const boost = get(w.ep,
        "/w/api.php?action=query&prop=info&inprop=url&format=json&formatversion=2"
        "&titles=Boost%20(C%2B%2B%20libraries)")
                           .json();
    BOOST_TEST(boost.at("query").at("pages").at(0).at("fullurl").as_string() ==
        "https://en.wikipedia.org/wiki/Boost_(C%2B%2B_libraries)");
}

BOOST_AUTO_TEST_CASE(a_missing_page_in_both_versions)
{
    running_web w;
    auto const v2 = get(w.ep, std::string(extract_query) + "C%C3%B3rdoba").json();
    auto const& page = v2.at("query").at("pages").at(0).as_object();
    BOOST_TEST((keys_of(page) ==
        keys{"ns", "title", "missing", "contentmodel", "pagelanguage", "pagelanguagehtmlcode", "pagelanguagedir",
            "fullurl", "editurl", "canonicalurl"}));
    BOOST_TEST(page.at("missing").as_bool());
    BOOST_TEST(page.at("title").as_string() == "Córdoba");
    BOOST_TEST(page.at("fullurl").as_string() == "https://es.wikipedia.org/wiki/C%C3%B3rdoba");

    auto const v1 = get(w.ep,
        "/es/w/api.php?action=query&prop=extracts%7Cinfo&explaintext=1&format=json"
        "&titles=Xyzzyq%7CMadrid")
                        .json();
    auto const& pages = v1.at("query").at("pages").as_object();
    BOOST_TEST_REQUIRE(pages.size() == 2u);
    BOOST_TEST(pages.at("-1").at("missing").as_string() == "");
    BOOST_TEST(pages.at("-1").at("title").as_string() == "Xyzzyq");
    BOOST_TEST(v1.at("batchcomplete").as_string() == "");
    bool madrid = false;
    for(auto const& kv : pages)
        if(kv.value().at("title") == "Madrid")
        {
            madrid = true;
            BOOST_TEST(std::string(kv.key()) == std::to_string(kv.value().at("pageid").as_int64()));
        }
    BOOST_TEST(madrid);
}

BOOST_AUTO_TEST_CASE(errors_are_a_200_with_the_error_header)
{
    running_web w;
    auto const missing = get(w.ep, "/es/w/api.php?action=query&list=search&format=json&formatversion=2");
    BOOST_TEST(missing.status == 200u);
    BOOST_TEST(missing.header("MediaWiki-API-Error") == "missingparam");
    auto const body = missing.json().as_object();
    BOOST_TEST((keys_of(body) == keys{"error", "servedby"}));
    BOOST_TEST((keys_of(body.at("error").as_object()) == keys{"code", "info", "docref"}));
    BOOST_TEST(body.at("error").at("info").as_string() == "The \"srsearch\" parameter must be set.");
    BOOST_TEST(body.at("servedby").as_string() == "mw-api-fake");

    auto const action = get(w.ep, "/es/w/api.php?action=parse&format=json");
    BOOST_TEST(action.header("MediaWiki-API-Error") == "badvalue");
    BOOST_TEST(action.json().at("error").at("*").as_string().starts_with("See https://es.wikipedia.org/w/api.php"));

    auto const sentences = get(w.ep,
        "/es/w/api.php?action=query&prop=extracts&exsentences=11&titles=Bilbao"
        "&format=json&formatversion=2");
    BOOST_TEST(sentences.status == 200u);
    BOOST_TEST(sentences.header("MediaWiki-API-Error") == "outofrange");

    // Unknown parameters are warnings next to a normal answer.
    auto const warned = get(w.ep,
        "/es/w/api.php?action=query&list=search&srsearch=Bilbao&colour=red"
        "&format=json&formatversion=2")
                            .json();
    BOOST_TEST(warned.at("warnings").at("main").at("warnings").as_string() == "Unrecognized parameter: colour.");
    BOOST_TEST(warned.at("query").at("search").as_array().size() == 1u);
}

BOOST_AUTO_TEST_CASE(without_format_json_the_answer_is_an_html_page)
{
    running_web w;
    auto const r = get(w.ep, "/es/w/api.php?action=query&list=search&srsearch=Bilbao");
    BOOST_TEST(r.status == 200u);
    BOOST_TEST(r.header("content-type") == "text/html; charset=UTF-8");
    BOOST_TEST(r.body.find("This is the HTML representation of the JSON format.") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================================

BOOST_AUTO_TEST_SUITE(fake_web_open_meteo)

BOOST_AUTO_TEST_CASE(places_by_name_largest_first_with_empty_fields_left_out)
{
    running_web w;
    auto const r = get(w.ep, "/v1/search?name=Madrid&count=10&language=es&format=json");
    BOOST_TEST(r.status == 200u);
    BOOST_TEST(r.header("content-type") == "application/json; charset=utf-8");
    auto const body = r.json().as_object();
    BOOST_TEST((keys_of(body) == keys{"results", "generationtime_ms"}));
    BOOST_TEST(body.at("generationtime_ms").is_double());
    auto const& results = body.at("results").as_array();
    BOOST_TEST_REQUIRE(results.size() == 2u);
    auto const& spain = results[0].as_object();
    BOOST_TEST((keys_of(spain) ==
        keys{"id", "name", "latitude", "longitude", "elevation", "feature_code", "country_code", "admin1_id",
            "admin2_id", "timezone", "population", "country_id", "country", "admin1", "admin2"}));
    BOOST_TEST(spain.at("id").as_int64() == 3117735);
    BOOST_TEST(spain.at("latitude").as_double() == 40.4165);
    BOOST_TEST(spain.at("elevation").as_double() == 667.0);
    BOOST_TEST(r.body.find("\"elevation\":667.0,") != std::string::npos);
    BOOST_TEST(spain.at("timezone").as_string() == "Europe/Madrid");
    BOOST_TEST(results[1].at("country_code").as_string() == "US");
    BOOST_TEST(agentio::to_json_text(results[1].at("postcodes")) == R"(["50156"])");

    // A name in the language asked for.
    auto const london = get(w.ep, "/v1/search?name=Lond&count=1&language=es").json();
    BOOST_TEST(london.at("results").at(0).at("name").as_string() == "Londres");
    auto const english = get(w.ep, "/v1/search?name=Londres&count=1").json();
    BOOST_TEST(english.at("results").at(0).at("name").as_string() == "London");
}

BOOST_AUTO_TEST_CASE(the_country_filter_runs_after_the_cut_and_nothing_has_no_results_key)
{
    running_web w;
    auto const cut = get(w.ep, "/v1/search?name=Madrid&count=1&countryCode=US");
    BOOST_TEST(cut.status == 200u);
    BOOST_TEST((keys_of(cut.json().as_object()) == keys{"generationtime_ms"}));
    auto const wider = get(w.ep, "/v1/search?name=Madrid&count=5&countryCode=US").json();
    BOOST_TEST(wider.at("results").as_array().size() == 1u);
    BOOST_TEST(wider.at("results").at(0).at("admin1").as_string() == "Iowa");
    BOOST_TEST((keys_of(get(w.ep, "/v1/search?name=Madrid&count=5&countryCode=us").json().as_object()) ==
        keys{"generationtime_ms"})); // compared exactly, as stored
    auto const nothing = get(w.ep, "/v1/search?name=Xyzzyville");
    BOOST_TEST(std::regex_match(nothing.body, std::regex(R"(\{"generationtime_ms":[0-9.]+\})")), nothing.body);
    auto const both = get(w.ep, "/v1/search?name=Santiago&count=10").json();
    BOOST_TEST(both.at("results").as_array().size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_bad_count_is_the_apis_400)
{
    running_web w;
    for(auto const* count : {"0", "101"})
    {
        auto const r = get(w.ep, std::string("/v1/search?name=Madrid&count=") + count);
        BOOST_TEST(r.status == 400u);
        BOOST_TEST(r.body == R"({"error":true,"reason":"Parameter count must be between 1 and 100."})");
    }
}

BOOST_AUTO_TEST_CASE(a_forecast_in_the_writers_order_and_units)
{
    running_web w;
    std::string const target = "/v1/forecast?latitude=40.4165&longitude=-3.70256"
                               "&current=temperature_2m,relative_humidity_2m,wind_speed_10m,weather_code"
                               "&daily=temperature_2m_max,temperature_2m_min,precipitation_sum,weather_code"
                               "&timezone=auto&forecast_days=3";
    auto const r = get(w.ep, target);
    BOOST_TEST(r.status == 200u);
    auto const body = r.json().as_object();
    BOOST_TEST((keys_of(body) ==
        keys{"latitude", "longitude", "generationtime_ms", "utc_offset_seconds", "timezone", "timezone_abbreviation",
            "elevation", "current_units", "current", "daily_units", "daily"}));
    BOOST_TEST(body.at("latitude").as_double() == 40.4375); // the model's grid
    BOOST_TEST(body.at("longitude").as_double() == -3.6875);
    BOOST_TEST(body.at("timezone").as_string() == "Europe/Madrid");
    BOOST_TEST(body.at("utc_offset_seconds").as_int64() == 3600);
    BOOST_TEST(body.at("timezone_abbreviation").as_string() == "GMT+1");
    BOOST_TEST(body.at("elevation").as_double() == 667.0);
    BOOST_TEST(agentio::to_json_text(body.at("current_units")) ==
        R"({"time":"iso8601","interval":"seconds","temperature_2m":"°C","relative_humidity_2m":"%","wind_speed_10m":"km/h","weather_code":"wmo code"})");
    auto const& now = body.at("current").as_object();
    BOOST_TEST((keys_of(now) ==
        keys{"time", "interval", "temperature_2m", "relative_humidity_2m", "wind_speed_10m", "weather_code"}));
    BOOST_TEST(now.at("time").as_string() == "2026-12-01T10:15");
    BOOST_TEST(now.at("interval").as_int64() == 900);
    BOOST_TEST(now.at("relative_humidity_2m").is_int64());
    BOOST_TEST(now.at("weather_code").is_int64());
    BOOST_TEST(std::regex_search(r.body, std::regex(R"("temperature_2m":-?\d+\.\d,)")), r.body);
    BOOST_TEST(std::regex_search(r.body, std::regex(R"("wind_speed_10m":\d+\.\d,)")), r.body);
    BOOST_TEST(agentio::to_json_text(body.at("daily_units")) ==
        R"({"time":"iso8601","temperature_2m_max":"°C","temperature_2m_min":"°C","precipitation_sum":"mm","weather_code":"wmo code"})");
    auto const& daily = body.at("daily").as_object();
    BOOST_TEST(agentio::to_json_text(daily.at("time")) == R"(["2026-12-01","2026-12-02","2026-12-03"])");
    std::set<std::int64_t> const wmo{0, 1, 2, 3, 45, 48, 51, 53, 55, 56, 57, 61, 63, 65, 66, 67, 71, 73, 75, 77, 80, 81,
        82, 85, 86, 95, 96, 99};
    for(std::size_t d = 0; d < 3; ++d)
    {
        double const hi = daily.at("temperature_2m_max").at(d).as_double();
        double const lo = daily.at("temperature_2m_min").at(d).as_double();
        BOOST_TEST((hi > lo && hi < 30.0 && lo > -15.0), hi << " " << lo); // December in Madrid
        auto const code = daily.at("weather_code").at(d).as_int64();
        BOOST_TEST(wmo.count(code) == 1u, code);
        double const rain = daily.at("precipitation_sum").at(d).as_double();
        BOOST_TEST((rain >= 0.0 && (code > 3 && code != 45 ? rain > 0.0 : rain == 0.0)), code << " " << rain);
    }
    auto const humidity = now.at("relative_humidity_2m").as_int64();
    BOOST_TEST((humidity >= 0 && humidity <= 100));

    // Deterministic: the same request, the same bytes; another day, other values.
    BOOST_TEST(get(w.ep, target).body == r.body);
    running_web later({.today = "2027-06-15"});
    auto const june = get(later.ep, target).json();
    BOOST_TEST(june.at("current").at("time").as_string() == "2027-06-15T10:15");
    BOOST_TEST(june.at("daily").at("temperature_2m_max").at(0).as_double() >
        daily.at("temperature_2m_max").at(0).as_double());
}

BOOST_AUTO_TEST_CASE(timezones_by_place_or_gmt)
{
    running_web w;
    auto const tokyo = get(w.ep, "/v1/forecast?latitude=35.7&longitude=139.7&timezone=auto&daily=weather_code").json();
    BOOST_TEST(tokyo.at("timezone").as_string() == "Asia/Tokyo");
    BOOST_TEST(tokyo.at("utc_offset_seconds").as_int64() == 32400);
    BOOST_TEST(tokyo.at("daily").at("time").as_array().size() == 7u); // forecast_days' default
    auto const sea = get(w.ep, "/v1/forecast?latitude=45&longitude=-30&timezone=auto&current=temperature_2m").json();
    BOOST_TEST(sea.at("timezone").as_string() == "GMT");
    BOOST_TEST(sea.at("utc_offset_seconds").as_int64() == 0);
    auto const ny =
        get(w.ep, "/v1/forecast?latitude=40.7&longitude=-74&timezone=America/New_York&current=weather_code").json();
    BOOST_TEST(ny.at("utc_offset_seconds").as_int64() == -18000);
    auto const apparent = get(w.ep,
        "/v1/forecast?latitude=43.26&longitude=-2.93"
        "&current=apparent_temperature,precipitation&daily=wind_speed_10m_max")
                              .json();
    BOOST_TEST(apparent.at("current").at("apparent_temperature").is_number());
    BOOST_TEST(apparent.at("current_units").at("precipitation").as_string() == "mm");
    BOOST_TEST(apparent.at("daily_units").at("wind_speed_10m_max").as_string() == "km/h");
}

BOOST_AUTO_TEST_CASE(bad_parameters_are_the_apis_400s)
{
    running_web w;
    auto reason = [&](std::string target) {
        auto const r = get(w.ep, std::move(target));
        BOOST_TEST(r.status == 400u);
        return std::string(r.json().at("reason").as_string());
    };
    BOOST_TEST(reason("/v1/forecast?latitude=91&longitude=0") ==
        "Latitude must be in range of -90 to 90°. Given: 91.0.");
    BOOST_TEST(reason("/v1/forecast?latitude=0&longitude=200.5") ==
        "Longitude must be in range of -180 to 180°. Given: 200.5.");
    BOOST_TEST(reason("/v1/forecast?daily=weather_code") == "Parameter 'latitude' and 'longitude' must not be empty");
    BOOST_TEST(reason("/v1/forecast?latitude=1&longitude=1&current=tempeture_2m") ==
        "Cannot initialize WeatherVariable from invalid String value tempeture_2m for key current");
    BOOST_TEST(reason("/v1/forecast?latitude=1&longitude=1&forecast_days=17") ==
        "Forecast days is invalid. Allowed range 0 to 16. Given 16.");
    BOOST_TEST(reason("/v1/forecast?latitude=1&longitude=1&timezone=Mars/Olympus") == "Invalid timezone");
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================================

BOOST_AUTO_TEST_SUITE(fake_web_faults)

BOOST_AUTO_TEST_CASE(http_errors_in_each_services_words)
{
    running_web w;
    fake::web_fault limited;
    limited.service = "tavily";
    limited.kind = "http_error";
    limited.status = 429;
    limited.retry_after_seconds = 7;
    limited.times = 1;
    w.web->add_fault(limited);
    w.fault("tavily", "http_error", 432, 1);
    auto const first = tavily(w.ep, {{"query", "messi"}});
    BOOST_TEST(first.status == 429u);
    BOOST_TEST(first.header("retry-after") == "7");
    BOOST_TEST(first.body ==
        R"({"detail":{"error":"Your request has been blocked due to excessive requests. Please reduce rate of requests."}})");
    auto const second = tavily(w.ep, {{"query", "messi"}}); // the next fault in line
    BOOST_TEST(second.status == 432u);
    BOOST_TEST(second.json().at("detail").at("error").as_string().starts_with("This request exceeds your plan's"));
    BOOST_TEST(tavily(w.ep, {{"query", "messi"}}).status == 200u);

    w.fault("forecast", "http_error", 503);
    auto const overloaded = get(w.ep, "/v1/forecast?latitude=1&longitude=1");
    BOOST_TEST(overloaded.status == 503u);
    BOOST_TEST(overloaded.body == R"({"error":true,"reason":"The service is overloaded"})");
    w.fault("geocoding", "http_error", 429);
    BOOST_TEST(get(w.ep, "/v1/search?name=Bilbao").json().at("reason").as_string() ==
        "Minutely API request limit exceeded. Please try again in one minute.");

    w.fault("wikipedia", "http_error", 503);
    auto const wiki = get(w.ep, "/es/w/api.php?action=query&list=search&srsearch=x&format=json");
    BOOST_TEST(wiki.status == 503u);
    BOOST_TEST(wiki.header("content-type") == "text/html; charset=UTF-8");
    BOOST_TEST(wiki.body.find("Our servers are currently under maintenance or experiencing a technical problem") !=
        std::string::npos);
    w.fault("duckduckgo", "http_error", 500);
    auto const ddg = get(w.ep, "/html/?q=messi");
    BOOST_TEST(ddg.status == 500u);
    BOOST_TEST(ddg.body.find("<title>500 Internal Server Error</title>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(garbage_and_html_pages_where_json_was_expected)
{
    running_web w;
    w.fault("tavily", "garbage", 500, 1);
    auto const garbage = tavily(w.ep, {{"query", "messi"}});
    BOOST_TEST(garbage.status == 200u);
    BOOST_TEST(garbage.header("content-type") == "application/json; charset=utf-8");
    boost::system::error_code ec;
    json::parse(garbage.body, ec);
    BOOST_TEST(ec.failed());

    w.fault("duckduckgo", "garbage", 500, 1);
    auto const unrelated = get(w.ep, "/html/?q=messi");
    BOOST_TEST(unrelated.status == 200u);
    BOOST_TEST(unrelated.body.find("result") == std::string::npos);
    BOOST_TEST(unrelated.body.find("<html>") != std::string::npos);

    w.fault("tavily", "html_page", 502, 1);
    auto const proxy = tavily(w.ep, {{"query", "messi"}});
    BOOST_TEST(proxy.status == 502u);
    BOOST_TEST(proxy.header("content-type") == "text/html; charset=UTF-8");
    BOOST_TEST(proxy.body.find("502 Bad Gateway") != std::string::npos);
    w.fault("wikipedia", "html_page", 503, 1);
    BOOST_TEST(get(w.ep, "/es/w/api.php?action=query&format=json").body.find("Wikimedia Error") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_truncated_body_a_stall_and_a_disconnect)
{
    running_web w;
    w.fault("geocoding", "truncate", 500, 1);
    auto const cut = get(w.ep, "/v1/search?name=Madrid");
    BOOST_TEST(cut.status == 200u);
    BOOST_TEST(!cut.complete);
    BOOST_TEST(cut.error.failed());
    BOOST_TEST(std::stoul(cut.header("content-length")) > cut.body.size());

    w.fault("tavily", "stall", 500, 1);
    auto const began = std::chrono::steady_clock::now();
    auto const held = send(w.ep, http::verb::post, "/search", R"({"query":"messi"})",
        {{"authorization", "Bearer tvly-test"}, {"content-type", "application/json"}}, 500ms);
    BOOST_TEST(held.status == 0u);
    BOOST_TEST((held.error == beast::error::timeout), held.error.message());
    BOOST_TEST((std::chrono::steady_clock::now() - began >= 400ms));
    // The client gone, the held connection ends.
    for(int i = 0; i < 200 && w.web->connection_count() > 0; ++i)
        std::this_thread::sleep_for(10ms);
    BOOST_TEST(w.web->connection_count() == 0u);

    w.fault("duckduckgo", "disconnect", 500, 1);
    auto const gone = get(w.ep, "/html/?q=messi");
    BOOST_TEST(gone.status == 0u);
    BOOST_TEST(gone.error.failed());
    BOOST_TEST(get(w.ep, "/html/?q=messi").status == 200u); // times = 1
}

BOOST_AUTO_TEST_CASE(duckduckgos_bot_check)
{
    running_web w;
    w.fault("duckduckgo", "blocked", 500, 1);
    auto const blocked = get(w.ep, "/html/?q=messi");
    BOOST_TEST(blocked.status == 202u);
    BOOST_TEST(blocked.body.find("data-testid=\"anomaly-modal\"") != std::string::npos);
    BOOST_TEST(blocked.body.find("<form id=\"challenge-form\" action=\"//duckduckgo.com/anomaly.js?") !=
        std::string::npos);
    BOOST_TEST(blocked.body.find("result__a") == std::string::npos);
    w.fault("duckduckgo", "blocked", 200, 1);
    BOOST_TEST(get(w.ep, "/html/?q=messi").status == 200u);
}

BOOST_AUTO_TEST_CASE(mediawikis_internal_error_and_open_meteos_broken_stream)
{
    running_web w;
    w.fault("wikipedia", "api_error", 500, 1);
    auto const api = get(w.ep, "/es/w/api.php?action=query&list=search&srsearch=Bilbao&format=json&formatversion=2");
    BOOST_TEST(api.status == 200u);
    BOOST_TEST(api.header("MediaWiki-API-Error") == "internal_api_error_DBQueryError");
    BOOST_TEST(api.json().at("error").at("code").as_string() == "internal_api_error_DBQueryError");
    BOOST_TEST(api.json().at("error").at("errorclass").as_string() == "Wikimedia\\Rdbms\\DBQueryError");

    w.fault("forecast", "stream_error", 500, 1);
    auto const broken = get(w.ep, "/v1/forecast?latitude=43.26&longitude=-2.93&daily=weather_code");
    BOOST_TEST(broken.status == 200u);
    BOOST_TEST(broken.complete);
    BOOST_TEST(broken.header("transfer-encoding") == "chunked");
    BOOST_TEST(broken.body.starts_with("{\"latitude\":43.25,"));
    BOOST_TEST(broken.body.find("Unexpected error while streaming data: ") != std::string::npos);
    boost::system::error_code ec;
    json::parse(broken.body, ec);
    BOOST_TEST(ec.failed());
}

BOOST_AUTO_TEST_CASE(which_requests_a_fault_answers)
{
    running_web w;
    fake::web_fault only_madrid;
    only_madrid.service = "geocoding";
    only_madrid.kind = "http_error";
    only_madrid.status = 500;
    only_madrid.when_contains = "Madrid";
    only_madrid.times = 2;
    w.web->add_fault(only_madrid);
    BOOST_TEST(get(w.ep, "/v1/search?name=Bilbao").status == 200u);
    BOOST_TEST(get(w.ep, "/v1/search?name=Madrid").status == 500u);
    BOOST_TEST(get(w.ep, "/v1/search?name=Madrid").json().at("reason").as_string() == "Something went wrong.");
    BOOST_TEST(get(w.ep, "/v1/search?name=Madrid").status == 200u);
    w.web->reset(); // counts start again, the record too
    BOOST_TEST(w.web->requests().empty());
    BOOST_TEST(get(w.ep, "/v1/search?name=Madrid").status == 500u);
    w.web->clear_faults();
    BOOST_TEST(get(w.ep, "/v1/search?name=Madrid").status == 200u);

    // A world's own faults, replaced with the world.
    auto world = json::parse(R"({"faults": [{"service": "tavily", "kind": "http_error", "status": 433}]})");
    w.web->set_world(fake::parse_web_world(world));
    BOOST_TEST(tavily(w.ep, {{"query", "messi"}}).status == 433u);
    w.web->set_world(fake::read_web_world(world_file()));
    BOOST_TEST(tavily(w.ep, {{"query", "messi"}}).status == 200u);
}

BOOST_AUTO_TEST_SUITE_END()
