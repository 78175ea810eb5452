// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// What a typed answer costs beside a plain run whose answer is parsed by hand,
// side by side in one run, against the fake LLM (its own thread, loopback):
//
// - `run` + hand parsing: the answer's JSON parsed and its members read one by
//   one, as an application without typed answers does (no validation);
// - `run<T>`: the schema in every request (structured output), the answer
//   validated against it and converted;
// - the part of that done in process, alone: validate + convert one answer.
//
// Each mode asks the same question N times (one model round each) over both
// wire formats; the table gives the mean and median per run and the request
// bodies' size.
//
//   cmake --build --preset release --target agentio_typed_answer_bench && ./build/release/bench/agentio_typed_answer_bench [N]
#include <agentio/agent/orchestrator.hpp>
#include <agentio/llm/anthropic.hpp>
#include <agentio/llm/openai.hpp>
#include <agentio/testing/fake_llm.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/describe.hpp>
#include <boost/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace json = boost::json;
namespace llm = agentio::llm;
namespace agent = agentio::agent;
using clock_type = std::chrono::steady_clock;

namespace {

// An invoice summary, as a text-to-SQL agent reports one.
struct line
{
    std::string product;
    int quantity = 0;
    double amount = 0;
    static constexpr agentio::field_info fields[] = {
        {.description = "Product name", .min_length = 1},
        {.description = "Units sold", .minimum = 0},
        {.description = "Amount in euros"},
    };
};
BOOST_DESCRIBE_STRUCT(line, (), (product, quantity, amount))

struct summary
{
    std::string customer;
    double total = 0;
    std::string currency;
    std::vector<line> lines;
    static constexpr agentio::field_info fields[] = {
        {.description = "The customer's name"},
        {.description = "The total in euros"},
        {.description = "ISO 4217 code", .one_of = {"EUR", "USD"}},
        {.description = "The invoice's lines", .max_items = 20},
    };
};
BOOST_DESCRIBE_STRUCT(summary, (), (customer, total, currency, lines))

constexpr char const* answer_text = R"({"customer": "Luís Gonçalves", "total": 39.62, "currency": "EUR", "lines": [)"
                                    R"({"product": "Balls to the Wall", "quantity": 2, "amount": 1.98},)"
                                    R"({"product": "Restless and Wild", "quantity": 1, "amount": 0.99},)"
                                    R"({"product": "Princess of the Dawn", "quantity": 3, "amount": 2.97},)"
                                    R"({"product": "Put The Finger On You", "quantity": 5, "amount": 4.95}]})";

// What an application without typed answers writes: parse, then read each member.
bool parse_by_hand(std::string const& text, summary& out)
{
    boost::system::error_code ec;
    auto const v = json::parse(text, ec);
    if(ec || !v.is_object())
        return false;
    auto const& o = v.get_object();
    auto const* customer = o.if_contains("customer");
    auto const* total = o.if_contains("total");
    auto const* currency = o.if_contains("currency");
    auto const* lines = o.if_contains("lines");
    if(!customer || !customer->is_string() || !total || !total->is_number() || !currency || !currency->is_string() ||
        !lines || !lines->is_array())
        return false;
    out.customer = customer->get_string();
    out.total = total->to_number<double>();
    out.currency = currency->get_string();
    for(auto const& l : lines->get_array())
    {
        auto const* lo = l.if_object();
        if(!lo)
            return false;
        line x;
        auto const* product = lo->if_contains("product");
        auto const* quantity = lo->if_contains("quantity");
        auto const* amount = lo->if_contains("amount");
        if(!product || !product->is_string() || !quantity || !quantity->is_int64() || !amount || !amount->is_number())
            return false;
        x.product = product->get_string();
        x.quantity = static_cast<int>(quantity->get_int64());
        x.amount = amount->to_number<double>();
        out.lines.push_back(std::move(x));
    }
    return true;
}

struct figures
{
    double mean_us = 0;
    double median_us = 0;
    std::size_t body_bytes = 0;
};

figures summarize(std::vector<double>& us, std::size_t body_bytes)
{
    std::sort(us.begin(), us.end());
    double sum = 0;
    for(double x : us)
        sum += x;
    return {sum / static_cast<double>(us.size()), us[us.size() / 2], body_bytes};
}

template<class Provider>
void compare(char const* wire, Provider& provider, asio::io_context& ioc, agentio::testing::fake_llm& fake, int n)
{
    agent::options o;
    o.model = "typed";
    agent::orchestrator a{provider, agentio::dynamic_tools{}, o};
    auto const sink = [](agent::event const&) {};
    auto last_body = [&] {
        auto const requests = fake.requests();
        return requests.empty() ? std::size_t(0) : json::serialize(requests.back().body).size();
    };

    std::vector<double> plain_us, typed_us;
    std::size_t plain_body = 0, typed_body = 0;
    int failures = 0;
    for(int i = 0; i < 2 * n; ++i)
    {
        bool const typed = i % 2 == 1; // interleaved: both modes see the same machine
        std::vector<llm::message> conversation{llm::message::user("Resume la factura 98.")};
        auto const start = clock_type::now();
        if(typed)
        {
            auto f = asio::co_spawn(ioc, a.template run<summary>(conversation, sink), asio::use_future);
            ioc.restart();
            ioc.run();
            auto const r = f.get();
            failures += r.value && r.value->lines.size() == 4 ? 0 : 1;
        }
        else
        {
            auto f = asio::co_spawn(ioc, a.run(conversation, sink), asio::use_future);
            ioc.restart();
            ioc.run();
            auto const r = f.get();
            summary s;
            failures += parse_by_hand(r.answer, s) && s.lines.size() == 4 ? 0 : 1;
        }
        double const us = std::chrono::duration<double, std::micro>(clock_type::now() - start).count();
        (typed ? typed_us : plain_us).push_back(us);
        (typed ? typed_body : plain_body) = last_body();
        fake.reset();
    }
    auto const plain = summarize(plain_us, plain_body);
    auto const typed = summarize(typed_us, typed_body);
    std::printf("| %s | run + hand parsing | %.0f | %.0f | %zu |\n", wire, plain.mean_us, plain.median_us,
        plain.body_bytes);
    std::printf("| %s | run<T> | %.0f | %.0f | %zu |\n", wire, typed.mean_us, typed.median_us, typed.body_bytes);
    std::printf("| %s | difference | %+.0f | %+.0f | %+zd |\n", wire, typed.mean_us - plain.mean_us,
        typed.median_us - plain.median_us, static_cast<std::ptrdiff_t>(typed.body_bytes - plain.body_bytes));
    if(failures)
        std::printf("%d runs did not read the answer\n", failures);
}

} // namespace

int main(int argc, char** argv)
{
    int const n = argc > 1 ? std::atoi(argv[1]) : 2000;
    asio::io_context fake_ioc;
    agentio::testing::fake_llm_options fo;
    fo.max_recorded_requests = 1;
    agentio::testing::fake_llm fake(fake_ioc.get_executor(), fo);
    agentio::testing::scenario sc;
    sc.name = "typed";
    agentio::testing::scripted_response answer;
    answer.text = answer_text;
    sc.turns.push_back({answer});
    fake.add_scenario(sc);
    auto const ep = fake.start().value();
    std::thread fake_thread([&] { fake_ioc.run(); });

    asio::io_context ioc;
    agentio::http::client client(ioc.get_executor());
    llm::provider_options po;
    po.api_key = "k";
    po.base_url = "http://127.0.0.1:" + std::to_string(ep.port());
    llm::anthropic_provider anthropic(client, po);
    po.base_url += "/v1";
    llm::openai_provider openai(client, po);

    std::printf("%d runs of each mode, one model round each, interleaved\n\n", n);
    std::printf("| wire | mode | mean µs | median µs | request body bytes |\n|---|---|---|---|---|\n");
    compare("Anthropic", anthropic, ioc, fake, n);
    compare("OpenAI", openai, ioc, fake, n);

    // The in-process part alone: validate and convert one answer, against parsing it by hand.
    constexpr int reps = 100000;
    std::string const text = answer_text;
    auto compiled = agentio::schema_validator::compile(json::parse(agentio::schema_of<summary>));
    if(!compiled)
        return std::fprintf(stderr, "%s\n", compiled.error().c_str()), 1;
    auto const& validator = *compiled;
    auto t0 = clock_type::now();
    std::size_t checksum = 0;
    for(int i = 0; i < reps; ++i)
    {
        summary s;
        checksum += parse_by_hand(text, s) ? s.lines.size() : 0;
    }
    double const by_hand = std::chrono::duration<double, std::micro>(clock_type::now() - t0).count() / reps;
    t0 = clock_type::now();
    for(int i = 0; i < reps; ++i)
    {
        auto const v = json::parse(text);
        summary s;
        if(validator.validate(v).ok() && agentio::read_json(v, s))
            checksum += s.lines.size();
    }
    double const typed = std::chrono::duration<double, std::micro>(clock_type::now() - t0).count() / reps;
    std::printf("\nIn process, per answer: parse by hand %.2f µs; parse + validate + convert %.2f µs (checksum %zu)\n",
        by_hand, typed, checksum);

    fake_ioc.stop();
    fake_thread.join();
}
