//
// agentio/chat_completions/serving.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What the front doors over chat_completions' models share (the OpenAI
// endpoint, AG-UI's, A2A's): an answer gathered from a model's outputs, a
// model's run raced against a stop, error responses, and the sessions'
// helpers. Only a protocol served over the same models needs it.
//

#ifndef AGENTIO_CHAT_COMPLETIONS_SERVING_HPP
#define AGENTIO_CHAT_COMPLETIONS_SERVING_HPP

#include <agentio/chat_completions/error.hpp>
#include <agentio/chat_completions/model.hpp>
#include <agentio/chat_completions/request.hpp>
#include <agentio/detail/cancellation.hpp>
#include <agentio/http/any_stream.hpp>
#include <agentio/http/json_response.hpp>
#include <agentio/json_text.hpp>
#include <agentio/llm/message_json.hpp>
#include <agentio/text.hpp>
#include <agentio/threads.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/message_generator.hpp>
#include <boost/json/parse.hpp>

#include <openssl/rand.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::chat_completions::serving {

using agentio::detail::is_cancellation;

inline std::string completion_id()
{
    static constexpr char alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    unsigned char bytes[24];
    if(RAND_bytes(bytes, sizeof bytes) != 1)
        throw std::runtime_error("RAND_bytes failed");
    std::string id = "chatcmpl-";
    for(auto b : bytes)
        id.push_back(alphabet[b % 62]);
    return id;
}

inline std::int64_t unix_now()
{
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

inline json::object usage_json(llm::usage const& u)
{
    auto const prompt = u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
    json::object o{{"prompt_tokens", prompt}, {"completion_tokens", u.output_tokens},
        {"total_tokens", prompt + u.output_tokens}};
    if(u.cache_read_input_tokens)
        o["prompt_tokens_details"] = json::object{{"cached_tokens", u.cache_read_input_tokens}};
    return o;
}

/** One answer as it is written: the outputs of a model turned into chunks
    (streaming) or into one `chat.completion`, with the client's stop
    sequences applied to the content whatever the model did with them.
*/
class answer
{
public:
    answer(request const& r)
        : id_(completion_id())
        , model_(r.model)
        , created_(unix_now())
        , include_usage_(r.include_usage)
        , stop_(r.stop)
    {
        for(auto const& s : stop_)
            hold_ = std::max(hold_, s.size() - 1);
    }

    /// Whether the answer has its end (finished, failed, or a stop sequence came).
    bool ended() const noexcept { return ended_; }

    /// Whether a stop sequence ended it: the model's run is to be stopped.
    bool stopped_by_sequence() const noexcept { return stopped_; }

    /// The error, when the model failed.
    std::optional<api_error> const& error() const noexcept { return error_; }

    std::string const& outcome() const noexcept { return outcome_; }
    llm::usage const& usage() const noexcept { return usage_; }

    /// Whether `[DONE]` waits for the caller (who stores the answer first).
    void hold_done(bool hold) noexcept { hold_done_ = hold; }

    /** Whether this door asks a person when the answer stops for approvals
        (@ref awaiting_approval: outcome `approval`); otherwise that stop is
        an error that says the door cannot (a 409, `approval_required`). */
    void serve_approvals(bool serve) noexcept { serve_approvals_ = serve; }

    /// The calls the answer stopped for (outcome `approval`).
    std::vector<approval_call> const& approvals() const noexcept { return approvals_; }

    /// The answer as an assistant message (text and the client's calls), to store.
    llm::message assistant_message() const
    {
        llm::message m{llm::role::assistant, {}};
        if(!content_.empty())
            m.content.emplace_back(llm::text_block{content_});
        for(auto const& c : calls_)
        {
            auto const& call = c.as_object();
            auto const& fn = call.at("function").as_object();
            llm::tool_use_block block{std::string(call.at("id").as_string()), std::string(fn.at("name").as_string()),
                {}, std::string(fn.at("arguments").as_string())};
            boost::system::error_code ec;
            block.input = json::parse(block.raw_input, ec);
            if(ec)
                block.input = nullptr;
            m.content.emplace_back(std::move(block));
        }
        return m;
    }

    /// Takes an output; with `stream`, appends the `data:` payloads to send.
    void take(output o, std::vector<std::string>* stream)
    {
        if(ended_)
            return;
        if(stream && !started_)
        {
            started_ = true;
            stream->push_back(chunk(json::object{{"role", "assistant"}, {"content", ""}}, nullptr));
        }
        std::visit([&](auto& v) { on(v, stream); }, o);
    }

    /// The `chat.completion` object of a non-streamed answer that finished.
    json::object completion() const
    {
        json::object message{{"role", "assistant"},
            {"content", content_.empty() && !calls_.empty() ? json::value(nullptr) : json::value(content_)}};
        if(!reasoning_.empty())
            message["reasoning_content"] = reasoning_;
        if(!calls_.empty())
            message["tool_calls"] = calls_;
        message["refusal"] = nullptr;
        json::object choice{{"index", 0}, {"message", std::move(message)}, {"logprobs", nullptr},
            {"finish_reason", outcome_}};
        return json::object{{"id", id_}, {"object", "chat.completion"}, {"created", created_}, {"model", model_},
            {"choices", json::array{std::move(choice)}}, {"usage", usage_json(usage_)}};
    }

private:
    std::string chunk(json::object delta, json::value finish)
    {
        json::object c{{"id", id_}, {"object", "chat.completion.chunk"}, {"created", created_}, {"model", model_},
            {"choices",
                json::array{json::object{{"index", 0}, {"delta", std::move(delta)}, {"logprobs", nullptr},
                    {"finish_reason", finish}}}}};
        if(include_usage_)
            c["usage"] = nullptr;
        return to_json_text(c);
    }

    void emit_content(std::string text, std::vector<std::string>* stream)
    {
        if(text.empty())
            return;
        if(stream)
            stream->push_back(chunk(json::object{{"content", text}}, nullptr));
        content_ += text;
    }

    void on(content_delta& d, std::vector<std::string>* stream)
    {
        if(stop_.empty())
            return emit_content(std::move(d.text), stream);
        pending_ += d.text;
        std::size_t first = std::string::npos;
        for(auto const& s : stop_)
            first = std::min(first, pending_.find(s));
        if(first != std::string::npos)
        {
            emit_content(pending_.substr(0, first), stream);
            pending_.clear();
            stopped_ = true;
            end(finish_reason::stop, stream);
            return;
        }
        // Keep back what could begin a stop sequence, on a character boundary.
        std::size_t const cut = agentio::utf8_byte_prefix(pending_,
            pending_.size() > hold_ ? pending_.size() - hold_ : 0);
        emit_content(pending_.substr(0, cut), stream);
        pending_.erase(0, cut);
    }

    void on(reasoning_delta& d, std::vector<std::string>* stream)
    {
        if(d.text.empty())
            return;
        if(stream)
            stream->push_back(chunk(json::object{{"reasoning_content", d.text}}, nullptr));
        else
            reasoning_ += d.text;
    }

    // The index a call has in `delta.tool_calls`: the order the calls began in.
    std::size_t index_of(std::string const& id)
    {
        auto const [it, added] = call_index_.try_emplace(id, call_index_.size());
        (void)added;
        return it->second;
    }

    // The agent's own calls: told by the activity lines of the reasoning here.
    void on(tool_activity&, std::vector<std::string>*) {}
    void on(step_boundary&, std::vector<std::string>*) {} // the activity lines say the same
    void on(state_update&, std::vector<std::string>*) {}

    void on(tool_call_begun& c, std::vector<std::string>* stream)
    {
        if(!stream || call_index_.contains(c.id))
            return;
        json::object call{{"index", index_of(c.id)}, {"id", c.id}, {"type", "function"},
            {"function", json::object{{"name", c.name}, {"arguments", ""}}}};
        stream->push_back(chunk(json::object{{"tool_calls", json::array{std::move(call)}}}, nullptr));
    }

    void on(tool_call_arguments& a, std::vector<std::string>* stream)
    {
        auto const it = call_index_.find(a.id);
        if(!stream || it == call_index_.end() || a.delta.empty())
            return;
        json::object call{{"index", it->second}, {"function", json::object{{"arguments", a.delta}}}};
        stream->push_back(chunk(json::object{{"tool_calls", json::array{std::move(call)}}}, nullptr));
    }

    void on(tool_call_output& c, std::vector<std::string>* stream)
    {
        bool const streamed = call_index_.contains(c.id);
        json::object call{{"index", index_of(c.id)}, {"id", c.id}, {"type", "function"},
            {"function", json::object{{"name", c.name}, {"arguments", c.arguments}}}};
        if(stream && !streamed) // a call that began in the stream is there already, fragment by fragment
            stream->push_back(chunk(json::object{{"tool_calls", json::array{call}}}, nullptr));
        call.erase("index");
        calls_.push_back(std::move(call));
    }

    void on(finished& f, std::vector<std::string>* stream)
    {
        usage_ = f.usage;
        emit_content(std::exchange(pending_, {}), stream);
        end(f.reason, stream);
    }

    void on(awaiting_approval& a, std::vector<std::string>* stream)
    {
        if(!serve_approvals_)
        {
            std::string names;
            for(auto const& c : a.calls)
                names.append(names.empty() ? "'" : ", '").append(c.name).append("'");
            failed refusal{{409,
                "The agent's call of " + names +
                    " waits for a person's approval, which this endpoint cannot ask for; ask over AG-UI or A2A.",
                "invalid_request_error", {}, "approval_required"}};
            return on(refusal, stream);
        }
        usage_ = a.usage;
        emit_content(std::exchange(pending_, {}), stream);
        for(auto& c : a.turn)
            calls_.push_back(json::object{{"id", std::move(c.id)}, {"type", "function"},
                {"function", json::object{{"name", std::move(c.name)}, {"arguments", std::move(c.arguments)}}}});
        approvals_ = std::move(a.calls);
        ended_ = true;
        outcome_ = "approval";
    }

    void on(failed& f, std::vector<std::string>* stream)
    {
        ended_ = true;
        outcome_ = "error";
        if(stream)
            stream->push_back(to_json_text(to_json(f.error)));
        error_ = std::move(f.error);
    }

    void end(finish_reason reason, std::vector<std::string>* stream)
    {
        ended_ = true;
        outcome_ = std::string(to_string(reason));
        if(!stream)
            return;
        stream->push_back(chunk(json::object{}, json::value(outcome_)));
        if(include_usage_)
            stream->push_back(to_json_text(json::object{{"id", id_}, {"object", "chat.completion.chunk"},
                {"created", created_}, {"model", model_}, {"choices", json::array{}}, {"usage", usage_json(usage_)}}));
        if(!hold_done_)
            stream->push_back("[DONE]");
    }

    std::string id_;
    std::string model_;
    std::int64_t created_;
    bool include_usage_;
    std::vector<std::string> stop_;
    std::size_t hold_ = 0;
    std::string pending_;
    bool started_ = false;
    bool ended_ = false;
    bool stopped_ = false;
    bool hold_done_ = false;
    bool serve_approvals_ = false;
    std::vector<approval_call> approvals_;
    std::string outcome_;
    std::string content_;
    std::string reasoning_;
    json::array calls_;
    std::map<std::string, std::size_t, std::less<>> call_index_; // the client's calls streamed, by id
    llm::usage usage_;
    std::optional<api_error> error_;
};

inline beast::http::message_generator error_response(api_error const& e, http::request const& req)
{
    return http::json_response(static_cast<beast::http::status>(e.status), to_json(e), req);
}

// Runs a model's answer until it returns, or until `stop` is cancelled (a
// stop sequence ended the answer): the model's exception, if it threw.
// Neither branch of the race throws: `||` waits for a branch that succeeds.
inline asio::awaitable<std::exception_ptr> run_until_stopped(asio::awaitable<void>& task, asio::steady_timer& stop)
{
    using namespace asio::experimental::awaitable_operators;
    auto guarded = [&task]() -> asio::awaitable<std::exception_ptr> {
        try
        {
            co_await std::move(task);
        }
        catch(...)
        {
            co_return std::current_exception();
        }
        co_return nullptr;
    };
    auto stopped = [&stop]() -> asio::awaitable<void> {
        auto [ec] = co_await stop.async_wait(asio::as_tuple(asio::use_awaitable));
        (void)ec;
    };
    auto winner = co_await (guarded() || stopped());
    if(winner.index() == 0)
        co_return std::get<0>(winner);
    co_return nullptr;
}

// Runs `work` until it returns, or until the client closes the connection
// (then it is cancelled): a non-streamed answer has no writes by which to
// notice the client's leaving. True when the work returned.
inline asio::awaitable<bool> run_watching(http::any_stream& stream, asio::awaitable<void> work)
{
    using namespace asio::experimental::awaitable_operators;
    auto watch = [&stream]() -> asio::awaitable<void> {
        char byte[1];
        auto [ec, n] = co_await stream.async_read_some(asio::buffer(byte), asio::as_tuple(asio::use_awaitable));
        (void)n;
        if(ec)
            co_return; // closed or reset: the client has gone
        // It sent more (a pipelined request): not a departure; wait for the end of the work.
        asio::steady_timer never(co_await asio::this_coro::executor, std::chrono::steady_clock::time_point::max());
        auto [never_ec] = co_await never.async_wait(asio::as_tuple(asio::use_awaitable));
        (void)never_ec;
    };
    auto done = co_await (std::move(work) || watch());
    co_return done.index() == 0;
}

inline bool valid_session_id(std::string_view id) noexcept
{
    if(id.empty() || id.size() > 128)
        return false;
    return std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
            c == '.' || c == ':';
    });
}

// The router puts the server span's context in the request: what the handler reads and writes is traced under it.
inline std::string_view request_traceparent(http::request const& req)
{
    auto const it = req.find("traceparent");
    return it == req.end() ? std::string_view() : std::string_view(it->value());
}

// The stored messages attached to a request: the latest `max`, starting at
// a user's question (not inside a tool exchange).
inline std::vector<llm::message> memory_window(std::vector<threads::item>& items, std::size_t max, std::size_t after,
    std::size_t& first)
{
    first = std::max(items.size() > max ? items.size() - max : 0, std::min(after, items.size()));
    auto is_question = [](llm::message const& m) {
        return m.role == llm::role::user &&
            std::none_of(m.content.begin(), m.content.end(),
                [](llm::content_block const& b) { return std::holds_alternative<llm::tool_result_block>(b); });
    };
    while(first < items.size() && !is_question(items[first].message))
        ++first;
    std::vector<llm::message> out;
    for(std::size_t i = first; i < items.size(); ++i)
        out.push_back(std::move(items[i].message));
    return out;
}

// Appends `m`, merged into the last message when it has the same role (consecutive messages of a role are one turn).
inline void push_merged(std::vector<llm::message>& out, llm::message m)
{
    if(!out.empty() && out.back().role == m.role)
    {
        auto& last = out.back().content;
        last.insert(last.end(), std::make_move_iterator(m.content.begin()), std::make_move_iterator(m.content.end()));
        return;
    }
    out.push_back(std::move(m));
}

// Who asks, by `authenticate` (empty: everyone, the empty user), or the error to answer.
inline boost::system::result<std::string, api_error>
who_asks(std::function<boost::system::result<std::string, api_error>(http::request const&)> const& authenticate,
    http::request const& req)
{
    if(!authenticate)
        return std::string();
    return authenticate(req);
}

} // namespace agentio::chat_completions::serving

#endif
