// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Conversations that last, end to end on 127.0.0.1: the real server with its
// SQLite thread store, the agent against the fake LLM. A thread continued by
// id, the threads API, a stream resumed after the client left (by
// Last-Event-ID and ?after=), cancellation, owners under AGENT_API_KEYS, and
// the answers to bad or foreign ids.
#include "summaries.hpp"
#include "chat_fixture.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <fstream>

using namespace portfolio_test;
namespace http = boost::beast::http;

namespace {

std::string follow_up(std::string const& thread_id, std::string const& question)
{
    return json::serialize(json::object{{"thread_id", thread_id},
        {"messages", json::array{json::object{{"role", "user"}, {"content", question}}}}});
}

std::string follow_up(std::string const& thread_id, std::string const& question, std::string const& when_busy)
{
    return json::serialize(json::object{{"thread_id", thread_id}, {"busy_policy", when_busy},
        {"messages", json::array{json::object{{"role", "user"}, {"content", question}}}}});
}

http::fields with(std::initializer_list<std::pair<std::string, std::string>> fields)
{
    http::fields out;
    for(auto const& [name, value] : fields)
        out.set(name, value);
    return out;
}

test_http::reply get(asio::ip::tcp::endpoint ep, std::string const& target, http::fields const& extra = {})
{
    return test_http::request(ep, http::verb::get, target, {}, "application/json", extra);
}

// The rest of a stream, after the events already read.
std::vector<agentio::sse::event> drain(test_http::event_stream& s)
{
    std::vector<agentio::sse::event> out;
    while(!s.finished())
    {
        try
        {
            out.push_back(s.next());
        }
        catch(std::runtime_error const&)
        {
            break;
        }
    }
    return out;
}

std::string text_of(std::vector<agentio::sse::event> const& events)
{
    std::string out;
    for(auto const& e : events)
        if(e.type == "chunk")
            out += json::parse(e.data).at("content").as_string();
    return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(threads_api)

BOOST_AUTO_TEST_CASE(a_thread_is_continued_by_its_id)
{
    fake_provider f;
    chat_server s(anthropic_at(f, "portfolio-two-rounds"));
    auto const first = chat(s.endpoint(), ask("¿Cuántas iniciativas hay en ejecución?"));
    BOOST_TEST(first.names() == "chunk tool_call_start tool_call_delta clear_streaming tool_call chunk done ");
    std::string const thread_id(first.http.headers["x-thread-id"]);

    // The follow-up sends only the new question: the server prepends the thread,
    // tool calls and results included, so the model sees what it did.
    auto const second = chat(s.endpoint(), follow_up(thread_id, "¿Y cuántas planificadas?"));
    BOOST_TEST(second.http.status == 200u);
    BOOST_TEST(second.http.headers["x-thread-id"] == thread_id);
    BOOST_TEST(second.http.headers["x-run-id"] != first.http.headers["x-run-id"]);
    auto const requests = f.fake.requests();
    BOOST_REQUIRE(requests.size() == 4u);
    auto const& sent = requests[2].body.at("messages").as_array();
    BOOST_REQUIRE(sent.size() == 5u);
    BOOST_TEST(sent[1].at("content").as_array().back().at("type") == "tool_use");
    BOOST_TEST(sent[2].at("content").as_array().front().at("type") == "tool_result");
    BOOST_TEST(sent[4].at("content").as_array().front().at("text") == "¿Y cuántas planificadas?");

    // The threads API shows it.
    auto const list = get(s.endpoint(), "/api/v1/threads");
    BOOST_TEST(list.status == 200u);
    auto const threads = list.json().at("threads").as_array();
    BOOST_REQUIRE(threads.size() == 1u);
    BOOST_TEST(threads[0].at("id").as_string() == thread_id);
    BOOST_TEST(threads[0].at("title") == "¿Cuántas iniciativas hay en ejecución?");
    auto const one = get(s.endpoint(), "/api/v1/threads/" + thread_id);
    BOOST_TEST(one.status == 200u);
    auto const messages = one.json().at("messages").as_array();
    BOOST_REQUIRE(messages.size() == 8u); // two turns of: question, tool call, tool result, answer
    BOOST_TEST(messages[0].at("role") == "user");
    BOOST_TEST(messages[1].at("tool_calls").as_array().at(0).at("tool") == "contar_iniciativas");
    BOOST_TEST(messages[2].at("tool_results").as_array().size() == 1u);
    BOOST_TEST(first.text().ends_with(std::string(messages[3].at("text").as_string())));
    BOOST_TEST(!messages[3].at("text").as_string().empty());
    BOOST_TEST(messages[4].at("text") == "¿Y cuántas planificadas?");
    auto const run = one.json().at("run");
    BOOST_TEST(run.at("run_id").as_string() == second.http.headers["x-run-id"]);
    BOOST_TEST(run.at("status") == "completed");
    BOOST_TEST(run.at("last_event_id").as_int64() == static_cast<std::int64_t>(second.events.size()));

    // Deleted, it is gone with its runs.
    auto const removed = test_http::request(s.endpoint(), http::verb::delete_, "/api/v1/threads/" + thread_id);
    BOOST_TEST(removed.status == 204u);
    BOOST_TEST(get(s.endpoint(), "/api/v1/threads/" + thread_id).status == 404u);
    BOOST_TEST(
        get(s.endpoint(), "/api/v1/agent/runs/" + std::string(first.http.headers["x-run-id"]) + "/events").status ==
        404u);
    BOOST_TEST(get(s.endpoint(), "/api/v1/threads").json().at("threads").as_array().empty());
}

BOOST_AUTO_TEST_CASE(bad_and_unknown_ids_are_answered_naming_the_field)
{
    fake_provider f;
    chat_server s(anthropic_at(f, "anthropic-text-only"));
    std::string const unknown = "0b3c7d1e-7a52-4d8e-9f10-2a6b5c4d3e2f";
    auto post = [&](std::string const& body) { return test_http::post(s.endpoint(), "/api/v1/agent/chat", body); };

    auto r = post(follow_up("no-es-un-id", "hola"));
    BOOST_TEST(r.status == 400u);
    BOOST_TEST(r.detail() == "thread_id: identificador de conversación no válido");
    r = post(follow_up(unknown, "hola"));
    BOOST_TEST(r.status == 404u);
    BOOST_TEST(r.detail() == "thread_id: la conversación no existe");
    r = post(R"({"thread_id":")" + unknown +
        R"(","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":"c"}]})");
    BOOST_TEST(r.status == 422u);
    BOOST_TEST(r.detail().starts_with("messages: con thread_id, solo el nuevo mensaje del usuario"));

    r = get(s.endpoint(), "/api/v1/agent/runs/123/events");
    BOOST_TEST(r.status == 400u);
    BOOST_TEST(r.detail() == "run_id: identificador de ejecución no válido");
    r = get(s.endpoint(), "/api/v1/agent/runs/" + unknown + "/events");
    BOOST_TEST(r.status == 404u);
    BOOST_TEST(r.detail() == "run_id: la ejecución no existe");
    r = test_http::post(s.endpoint(), "/api/v1/agent/runs/" + unknown + "/cancel", "");
    BOOST_TEST(r.status == 404u);
    r = get(s.endpoint(), "/api/v1/threads/" + unknown);
    BOOST_TEST(r.status == 404u);
    r = get(s.endpoint(), "/api/v1/threads/xyz");
    BOOST_TEST(r.status == 400u);
    r = get(s.endpoint(), "/api/v1/threads?limit=0");
    BOOST_TEST(r.status == 422u);
    BOOST_TEST(r.detail().starts_with("limit:"));

    // A real run, then malformed resumption points.
    auto const done = chat(s.endpoint(), ask("hola"));
    std::string const run_id(done.http.headers["x-run-id"]);
    r = get(s.endpoint(), "/api/v1/agent/runs/" + run_id + "/events", with({{"Last-Event-ID", "tres"}}));
    BOOST_TEST(r.status == 400u, r.body);
    BOOST_TEST(r.detail() == "Last-Event-ID: se esperaba el número de un evento, recibido 'tres'");
    r = get(s.endpoint(), "/api/v1/agent/runs/" + run_id + "/events?after=-1");
    BOOST_TEST(r.status == 400u, r.body);
    BOOST_TEST(r.detail().starts_with("after:"));
    r = test_http::post(s.endpoint(), "/api/v1/agent/runs/" + run_id + "/cancel", "");
    BOOST_TEST(r.status == 409u);
    BOOST_TEST(r.detail() == "La ejecución ya terminó");
    r = test_http::post(s.endpoint(), "/api/v1/agent/runs/" + run_id + "/events", "");
    BOOST_TEST(r.status == 405u);
}

// With AGENT_API_KEYS each key is an owner: another owner's thread or run is
// not found, exactly as an unknown one.
BOOST_AUTO_TEST_CASE(each_key_sees_only_its_own_conversations)
{
    fake_provider f;
    auto settings = anthropic_at(f, "anthropic-text-only");
    settings.api_keys = {"clave-ana", "clave-luis"};
    chat_server s(settings);
    auto const ana = with({{"Authorization", "Bearer clave-ana"}});
    auto const luis = with({{"X-API-Key", "clave-luis"}});

    auto const refused = test_http::post(s.endpoint(), "/api/v1/agent/chat", ask("hola"));
    BOOST_TEST(refused.status == 401u);
    BOOST_TEST(refused.headers["www-authenticate"] == "Bearer");
    BOOST_TEST(get(s.endpoint(), "/api/v1/threads", with({{"Authorization", "Bearer otra"}})).status == 401u);

    test_http::event_stream answer(s.endpoint(), "/api/v1/agent/chat", ana, http::verb::post, ask("hola"));
    BOOST_TEST(answer.status == 200u);
    auto const events = drain(answer);
    BOOST_TEST(events.back().type == "done");
    std::string const thread_id(answer.headers["x-thread-id"]);
    std::string const run_id(answer.headers["x-run-id"]);

    BOOST_TEST(get(s.endpoint(), "/api/v1/threads", ana).json().at("threads").as_array().size() == 1u);
    BOOST_TEST(get(s.endpoint(), "/api/v1/threads", luis).json().at("threads").as_array().empty());
    BOOST_TEST(get(s.endpoint(), "/api/v1/threads/" + thread_id, ana).status == 200u);
    BOOST_TEST(get(s.endpoint(), "/api/v1/threads/" + thread_id, luis).status == 404u);
    BOOST_TEST(get(s.endpoint(), "/api/v1/agent/runs/" + run_id + "/events", luis).status == 404u);
    BOOST_TEST(test_http::request(s.endpoint(), http::verb::delete_, "/api/v1/threads/" + thread_id, {},
                   "application/json", luis)
                   .status == 404u);
    auto const foreign = test_http::request(s.endpoint(), http::verb::post, "/api/v1/agent/chat",
        follow_up(thread_id, "¿y?"), "application/json", luis);
    BOOST_TEST(foreign.status == 404u);
    // Ana still has it all.
    BOOST_TEST(get(s.endpoint(), "/api/v1/threads/" + thread_id, ana).json().at("messages").as_array().size() == 2u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(resumable_runs)

// The client leaves mid-answer; the run goes on, and a reattach with
// Last-Event-ID gets exactly the rest.
BOOST_AUTO_TEST_CASE(a_client_that_leaves_reattaches_where_it_was)
{
    agentio::testing::fake_llm_options slow;
    slow.token_interval = std::chrono::milliseconds(25);
    fake_provider f(slow);
    chat_server s(anthropic_at(f, "portfolio-two-rounds"));
    std::vector<agentio::sse::event> seen;
    std::string run_id;
    {
        test_http::event_stream first(s.endpoint(), "/api/v1/agent/chat", {}, http::verb::post,
            ask("¿Cuántas iniciativas hay en ejecución?"));
        run_id = std::string(first.headers["x-run-id"]);
        for(int i = 0; i < 3; ++i)
            seen.push_back(first.next());
        first.close(); // F5
    }
    test_http::event_stream again(s.endpoint(), "/api/v1/agent/runs/" + run_id + "/events",
        with({{"Last-Event-ID", seen.back().last_event_id}}));
    BOOST_TEST(again.status == 200u);
    BOOST_TEST(again.headers["x-run-id"] == run_id);
    auto const rest = drain(again);
    BOOST_REQUIRE(!rest.empty());
    BOOST_TEST(rest.front().last_event_id == "4");
    BOOST_TEST(rest.back().type == "done");
    std::vector<agentio::sse::event> all = seen;
    all.insert(all.end(), rest.begin(), rest.end());
    for(std::size_t i = 0; i < all.size(); ++i)
        BOOST_TEST(all[i].last_event_id == std::to_string(i + 1));

    // The whole answer, as one uninterrupted reader got it.
    auto const replay = get(s.endpoint(), "/api/v1/agent/runs/" + run_id + "/events?after=0");
    std::vector<agentio::sse::event> replayed;
    agentio::sse::parser p;
    p.feed(replay.body, [&](agentio::sse::event const& e) { replayed.push_back(e); });
    BOOST_REQUIRE(replayed.size() == all.size());
    BOOST_TEST(text_of(replayed) == text_of(all));
    BOOST_TEST(!text_of(all).empty());
    auto const tail = get(s.endpoint(),
        "/api/v1/agent/runs/" + run_id + "/events?after=" + std::to_string(all.size() - 1));
    BOOST_TEST(tail.body.find("event: done") != std::string::npos, tail.body);
    BOOST_TEST(tail.body.find("event: chunk") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(detener_stops_the_run_at_once)
{
    agentio::testing::fake_llm_options slow;
    slow.token_interval = std::chrono::milliseconds(40);
    fake_provider f(slow);
    chat_server s(anthropic_at(f, "portfolio-two-rounds"));
    test_http::event_stream answer(s.endpoint(), "/api/v1/agent/chat", {}, http::verb::post, ask("hola"));
    std::string const run_id(answer.headers["x-run-id"]);
    std::string const thread_id(answer.headers["x-thread-id"]);
    BOOST_TEST(answer.next().type == "chunk");
    auto const began = std::chrono::steady_clock::now();
    auto const cancel = test_http::post(s.endpoint(), "/api/v1/agent/runs/" + run_id + "/cancel", "");
    BOOST_TEST(cancel.status == 202u);
    BOOST_TEST(cancel.json().at("status") == "cancelling");
    auto const rest = drain(answer);
    BOOST_TEST((std::chrono::steady_clock::now() - began < std::chrono::seconds(3)));
    BOOST_REQUIRE(!rest.empty());
    BOOST_TEST(rest.back().type == "done");
    BOOST_TEST(json::parse(rest.back().data).at("status") == "cancelled");
    // The conversation keeps the question; the thread takes a new one at once.
    auto const view = get(s.endpoint(), "/api/v1/threads/" + thread_id).json();
    BOOST_TEST(view.at("run").at("status") == "cancelled");
    BOOST_TEST(view.at("messages").as_array().size() == 1u);
    auto const next = chat(s.endpoint(), follow_up(thread_id, "otra pregunta"));
    BOOST_TEST(next.http.status == 200u);
}

// One run at a time per thread: a second question while the first is still
// being answered is refused, not interleaved.
BOOST_AUTO_TEST_CASE(one_run_at_a_time_per_thread)
{
    agentio::testing::fake_llm_options slow;
    slow.token_interval = std::chrono::milliseconds(40);
    fake_provider f(slow);
    chat_server s(anthropic_at(f, "portfolio-two-rounds"));
    test_http::event_stream answer(s.endpoint(), "/api/v1/agent/chat", {}, http::verb::post, ask("hola"));
    std::string const thread_id(answer.headers["x-thread-id"]);
    answer.next();
    auto const busy = test_http::post(s.endpoint(), "/api/v1/agent/chat", follow_up(thread_id, "¿y?"));
    BOOST_TEST(busy.status == 409u);
    BOOST_TEST(busy.detail().starts_with("thread_id: la conversación tiene una respuesta en curso"));
    BOOST_TEST(drain(answer).back().type == "done");
}

// With busy_policy, a second question waits for the answer in progress, or interrupts it: the
// interrupted answer ends as cancelled, keeps what it had finished, and the new
// question is answered right after it.
BOOST_AUTO_TEST_CASE(a_second_question_waits_its_turn_or_interrupts)
{
    agentio::testing::fake_llm_options slow;
    slow.token_interval = std::chrono::milliseconds(20);
    fake_provider f(slow);
    chat_server s(anthropic_at(f, "portfolio-two-rounds"));
    test_http::event_stream first(s.endpoint(), "/api/v1/agent/chat", {}, http::verb::post, ask("primera"));
    std::string const thread_id(first.headers["x-thread-id"]);
    first.next();
    test_http::event_stream second(s.endpoint(), "/api/v1/agent/chat", {}, http::verb::post,
        follow_up(thread_id, "segunda", "enqueue"));
    BOOST_TEST(second.status == 200u);
    BOOST_TEST(second.headers["x-run-id"] != first.headers["x-run-id"]);
    auto const first_rest = drain(first);
    BOOST_TEST(json::parse(first_rest.back().data).at("status") == "completed");
    auto const second_events = drain(second);
    BOOST_REQUIRE(!second_events.empty());
    BOOST_TEST(second_events.front().type == "chunk");
    BOOST_TEST(json::parse(second_events.back().data).at("status") == "completed");

    test_http::event_stream third(s.endpoint(), "/api/v1/agent/chat", {}, http::verb::post,
        follow_up(thread_id, "tercera"));
    third.next();
    auto const began = std::chrono::steady_clock::now();
    test_http::event_stream fourth(s.endpoint(), "/api/v1/agent/chat", {}, http::verb::post,
        follow_up(thread_id, "cuarta", "interrupt"));
    auto const third_rest = drain(third);
    BOOST_TEST((std::chrono::steady_clock::now() - began < std::chrono::seconds(3)));
    BOOST_REQUIRE(!third_rest.empty());
    BOOST_TEST(json::parse(third_rest.back().data).at("status") == "cancelled");
    BOOST_TEST(json::parse(drain(fourth).back().data).at("status") == "completed");

    auto const view = get(s.endpoint(), "/api/v1/threads/" + thread_id).json();
    std::vector<std::string> questions;
    for(auto const& m : view.at("messages").as_array())
        if(m.at("role") == "user" && !m.as_object().contains("tool_results"))
            questions.emplace_back(m.at("text").as_string());
    std::vector<std::string> const expected{"primera", "segunda", "tercera", "cuarta"};
    BOOST_TEST(questions == expected, boost::test_tools::per_element());
}

// A model that reads at most 24 000 tokens (the system prompt and the tools take about 5 000, the answer's room
// 4 096), answering about 8 000 characters a turn: before the context window was managed, such a thread failed
// every turn from the eighth on, for good. Under each AGENT_CONTEXT_POLICY it keeps answering.
void a_long_thread_under(agentio::llm::context_policy policy)
{
    fake_provider f;
    agentio::testing::scripted_response answer;
    answer.text = "Según la cartera, " + std::string(8000, 'x') + ".";
    auto const summary = agentio_test::summary_response("RESUMEN: el usuario preguntó por las iniciativas.");
    agentio::testing::scenario sc;
    sc.name = "portfolio-ventana";
    sc.context_window = 24000;
    sc.turns.push_back({summary, answer});
    f.fake.add_scenario(sc);
    auto settings = anthropic_at(f, "portfolio-ventana");
    settings.context_policy = policy;
    chat_server s(settings);
    auto const first = chat(s.endpoint(), ask("Pregunta 0: ¿qué iniciativas hay?"));
    BOOST_TEST_REQUIRE(first.names() == "chunk done ", first.http.body);
    std::string const thread_id(first.http.headers["x-thread-id"]);
    for(int turn = 1; turn < 20; ++turn)
    {
        auto const next = chat(s.endpoint(), follow_up(thread_id, "Pregunta " + std::to_string(turn) + ": ¿y ahora?"));
        BOOST_TEST_REQUIRE(next.names() == "chunk done ", "turn " << turn << ": " << next.http.body);
    }
    // The last request ended with the last question and held only the latest turns; the thread holds them all.
    auto const requests = f.fake.requests();
    auto const& sent = requests.back().body.at("messages").as_array();
    BOOST_TEST(sent.size() < 30u);
    BOOST_TEST(json::serialize(sent.back()).find("Pregunta 19") != std::string::npos);
    auto const one = get(s.endpoint(), "/api/v1/threads/" + thread_id);
    BOOST_TEST(one.json().at("messages").as_array().size() == 40u);
    BOOST_TEST(one.body.find("RESUMEN") == std::string::npos); // the thread API shows the messages themselves
    std::size_t const summarizing = agentio_test::summary_requests(requests);
    auto const system = json::serialize(requests.back().body.at("system"));
    if(policy == agentio::llm::context_policy::compact)
    {
        // Summarized a few times over 20 turns, not every turn: what is kept leaves room for the next ones.
        BOOST_TEST(summarizing >= 1u);
        BOOST_TEST(summarizing <= 8u);
        BOOST_TEST(system.find("Resumen de la parte anterior de esta conversación") != std::string::npos);
        BOOST_TEST(system.find("RESUMEN: el usuario preguntó") != std::string::npos);
    }
    else
    {
        BOOST_TEST(summarizing == 0u);
        BOOST_TEST(system.find("RESUMEN") == std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(a_thread_longer_than_the_window_keeps_answering)
{
    a_long_thread_under(agentio::llm::context_policy::compact);
}

BOOST_AUTO_TEST_CASE(a_thread_longer_than_the_window_keeps_answering_trimmed)
{
    a_long_thread_under(agentio::llm::context_policy::trim);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(threads_postgres)

// AGENT_STORE naming a PostgreSQL that does not answer: the server does not start, and says why.
BOOST_AUTO_TEST_CASE(an_unreachable_database_stops_the_server_naming_agent_store)
{
    fake_provider f;
    auto settings = anthropic_at(f, "anthropic-text-only");
    settings.store = "postgresql://agentio:secreto@127.0.0.1:1/agentio";
    try
    {
        chat_server s(settings);
        BOOST_FAIL("the server started without its store");
    }
    catch(std::runtime_error const& e)
    {
        std::string const what = e.what();
        BOOST_TEST(what.starts_with("AGENT_STORE: no se puede usar la base de datos PostgreSQL"), what);
        BOOST_TEST(what.find("secreto") == std::string::npos, what); // no password in logs
    }
}

// The same conversation on PostgreSQL (the cluster scripts/postgres.sh started for the suite).
BOOST_AUTO_TEST_CASE(a_conversation_continues_on_postgresql)
{
    char const* dir = std::getenv("AGENTIO_TEST_POSTGRES_DIR");
    BOOST_REQUIRE_MESSAGE(dir, "AGENTIO_TEST_POSTGRES_DIR is not set: run through CTest");
    std::ifstream in(std::string(dir) + "/uri");
    std::string uri;
    std::getline(in, uri);
    fake_provider f;
    auto settings = anthropic_at(f, "portfolio-two-rounds");
    settings.store = uri;
    chat_server s(settings);
    auto const first = chat(s.endpoint(), ask("¿Cuántas iniciativas hay en ejecución?"));
    BOOST_TEST(first.names() == "chunk tool_call_start tool_call_delta clear_streaming tool_call chunk done ");
    std::string const thread_id(first.http.headers["x-thread-id"]);
    auto const second = chat(s.endpoint(), follow_up(thread_id, "¿Y planificadas?"));
    BOOST_TEST(second.names() == "chunk tool_call_start tool_call_delta clear_streaming tool_call chunk done ");
    BOOST_TEST(f.fake.requests().at(2).body.at("messages").as_array().size() == 5u);
    auto const view = get(s.endpoint(), "/api/v1/threads/" + thread_id).json();
    BOOST_TEST(view.at("messages").as_array().size() == 8u);
    auto const replay = get(s.endpoint(),
        "/api/v1/agent/runs/" + std::string(first.http.headers["x-run-id"]) + "/events?after=0");
    BOOST_TEST(replay.body.find("event: done") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(approvals)

// AGENT_APPROVAL_TOOLS: the model's call waits for a person; the run sleeps
// (no process holds it), and the decision, on any replica, resumes it.
BOOST_AUTO_TEST_CASE(aprobar_runs_the_call_and_the_answer_continues)
{
    fake_provider f;
    auto settings = anthropic_at(f, "portfolio-two-rounds");
    settings.approval_tools = {"contar_iniciativas"};
    chat_server s(settings);
    test_http::event_stream answer(s.endpoint(), "/api/v1/agent/chat", {}, http::verb::post,
        ask("¿Cuántas iniciativas hay en ejecución?"));
    std::string const run_id(answer.headers["x-run-id"]);
    auto const first = drain(answer);
    BOOST_REQUIRE(!first.empty());
    BOOST_TEST(first.back().type == "approval_required");
    auto const call = json::parse(first.back().data).as_object();
    std::vector<std::string> keys;
    for(auto const& kv : call)
        keys.emplace_back(kv.key());
    BOOST_TEST((keys == std::vector<std::string>{"run_id", "tool_call_id", "tool", "input"}));
    BOOST_TEST(call.at("run_id").as_string() == run_id);
    BOOST_TEST(call.at("tool").as_string() == "contar_iniciativas");
    BOOST_TEST(call.at("input").at("campo_agrupacion").as_string() == "estado_de_la_iniciativa");
    std::string const call_id(call.at("tool_call_id").as_string());
    auto const approvals = "/api/v1/agent/runs/" + run_id + "/approvals";

    auto r = test_http::post(s.endpoint(), approvals, "{}");
    BOOST_TEST(r.status == 422u);
    BOOST_TEST(r.detail().starts_with("tool_call_id: campo obligatorio"));
    r = test_http::post(s.endpoint(), approvals, R"({"tool_call_id":")" + call_id + R"(","approved":"sí"})");
    BOOST_TEST(r.status == 422u);
    BOOST_TEST(r.detail() == "approved: campo obligatorio (true o false)");
    r = test_http::post(s.endpoint(), approvals, R"({"tool_call_id":"toolu_otra","approved":true})");
    BOOST_TEST(r.status == 409u);
    BOOST_TEST(r.detail() == "tool_call_id: la llamada 'toolu_otra' no espera aprobación");
    r = test_http::post(s.endpoint(), "/api/v1/agent/runs/0b3c7d1e-7a52-4d8e-9f10-2a6b5c4d3e2f/approvals",
        R"({"tool_call_id":"x","approved":true})");
    BOOST_TEST(r.status == 404u);
    BOOST_TEST(get(s.endpoint(), "/api/v1/threads/" + std::string(answer.headers["x-thread-id"]))
                   .json()
                   .at("run")
                   .at("status") == "waiting");

    r = test_http::post(s.endpoint(), approvals, R"({"tool_call_id":")" + call_id + R"(","approved":true})");
    BOOST_TEST(r.status == 202u);
    BOOST_TEST(r.json().at("status") == "running");
    test_http::event_stream rest(s.endpoint(), "/api/v1/agent/runs/" + run_id + "/events",
        with({{"Last-Event-ID", first.back().last_event_id}}));
    auto const after = drain(rest);
    BOOST_REQUIRE(!after.empty());
    BOOST_TEST(after.front().type == "tool_call");
    BOOST_TEST(after.back().type == "done");
    BOOST_TEST(json::parse(after.back().data).at("status") == "completed");
    BOOST_TEST(text_of(after).find("\"total_iniciativas\"") != std::string::npos); // the tool ran

    r = test_http::post(s.endpoint(), approvals, R"({"tool_call_id":")" + call_id + R"(","approved":true})");
    BOOST_TEST(r.status == 409u);
    BOOST_TEST(r.detail() == "La ejecución no espera ninguna aprobación");
}

BOOST_AUTO_TEST_CASE(rechazar_tells_the_model_why)
{
    fake_provider f;
    auto settings = anthropic_at(f, "portfolio-two-rounds");
    settings.approval_tools = {"contar_iniciativas"};
    chat_server s(settings);
    test_http::event_stream answer(s.endpoint(), "/api/v1/agent/chat", {}, http::verb::post, ask("hola"));
    std::string const run_id(answer.headers["x-run-id"]);
    auto const first = drain(answer);
    std::string const call_id(json::parse(first.back().data).at("tool_call_id").as_string());
    auto const r = test_http::post(s.endpoint(), "/api/v1/agent/runs/" + run_id + "/approvals",
        R"({"tool_call_id":")" + call_id + R"(","approved":false,"reason":"prefiero no consultarlo"})");
    BOOST_TEST(r.status == 202u);
    test_http::event_stream rest(s.endpoint(), "/api/v1/agent/runs/" + run_id + "/events",
        with({{"Last-Event-ID", first.back().last_event_id}}));
    auto const after = drain(rest);
    BOOST_TEST(after.back().type == "done");
    auto const tool = std::find_if(after.begin(), after.end(), [](auto const& e) { return e.type == "tool_call"; });
    BOOST_REQUIRE(tool != after.end());
    BOOST_TEST(json::parse(tool->data).at("result_summary").as_string() ==
        "El usuario rechazó la llamada a 'contar_iniciativas': prefiero no consultarlo");
    auto const sent = f.fake.requests().at(1).body.at("messages").as_array().back().at("content").at(0);
    BOOST_TEST(sent.at("is_error").as_bool());
}

BOOST_AUTO_TEST_CASE(an_unknown_approval_tool_stops_the_server)
{
    fake_provider f;
    auto settings = anthropic_at(f, "portfolio-two-rounds");
    settings.approval_tools = {"borrar_todo"};
    try
    {
        chat_server s(settings);
        BOOST_FAIL("the server started");
    }
    catch(std::runtime_error const& e)
    {
        BOOST_TEST(std::string(e.what()) == "AGENT_APPROVAL_TOOLS: no hay ninguna herramienta 'borrar_todo'");
    }
}

BOOST_AUTO_TEST_SUITE_END()
