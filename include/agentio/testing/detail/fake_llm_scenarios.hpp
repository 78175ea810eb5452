//
// agentio/testing/detail/fake_llm_scenarios.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Reading scenarios: JSON to the scenario types, every error naming its place.
//

#ifndef AGENTIO_TESTING_DETAIL_FAKE_LLM_SCENARIOS_HPP
#define AGENTIO_TESTING_DETAIL_FAKE_LLM_SCENARIOS_HPP

#include <agentio/json_text.hpp>
#include <agentio/sse/format.hpp>
#include <agentio/testing/detail/fake_llm_wire.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/serializer.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/stream_parser.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <deque>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace agentio::testing {

// ================================================================================
// Reading scenarios
// ================================================================================

namespace detail {

// Walks a scenario's JSON keeping the JSON Pointer of the value being read,
// so that every error names its place.
class scenario_reader
{
public:
    explicit scenario_reader(std::string file) : file_(std::move(file)) {}

    scenario read_scenario(json::value const& jv)
    {
        auto const& o = object(jv);
        check_keys(o, {"name", "description", "model", "token_interval_ms", "context_window", "turns", "embeddings"});
        scenario s;
        s.name = string(required(o, "name"), "name");
        if(s.name.empty())
            fail_at("name", "must not be empty");
        if(auto const* v = o.if_contains("model"))
            s.model = string(*v, "model");
        if(auto const* v = o.if_contains("token_interval_ms"))
            s.token_interval = std::chrono::milliseconds(uint(*v, "token_interval_ms", 3'600'000));
        if(auto const* v = o.if_contains("context_window"))
            s.context_window = uint(*v, "context_window", 100'000'000);
        if(auto const* v = o.if_contains("embeddings"))
        {
            if(o.contains("turns"))
                fail_at("embeddings", "a scenario has either turns (a chat model) or embeddings, not both");
            enter e(*this, "embeddings");
            s.embeddings = read_embeddings(*v);
            return s;
        }
        if(!o.contains("turns"))
            fail("missing required key 'turns' (or 'embeddings' for an embedding model)");
        auto const& turns = array(required(o, "turns"), "turns");
        if(turns.empty())
            fail_at("turns", "needs at least one turn");
        enter e1(*this, "turns");
        for(std::size_t i = 0; i < turns.size(); ++i)
        {
            enter e2(*this, i);
            std::vector<scripted_response> alternatives;
            if(auto const* list = turns[i].if_array())
            {
                if(list->empty())
                    fail("a turn given as a list needs at least one alternative");
                for(std::size_t j = 0; j < list->size(); ++j)
                {
                    enter e3(*this, j);
                    alternatives.push_back(read_response((*list)[j]));
                }
            }
            else
                alternatives.push_back(read_response(turns[i]));
            s.turns.push_back(std::move(alternatives));
        }
        return s;
    }

    // The `index`th scenario of a file holding an array of them.
    scenario read_scenario_in_list(json::value const& jv, std::size_t index)
    {
        enter e(*this, index);
        return read_scenario(jv);
    }

    [[noreturn]] void fail(std::string const& message) const { throw scenario_error(file_, pointer_, message); }

private:
    // Extends the pointer for the lifetime of a scope.
    struct enter
    {
        scenario_reader& r;
        std::size_t size;

        enter(scenario_reader& reader, std::string_view key) : r(reader), size(reader.pointer_.size())
        {
            r.pointer_.push_back('/');
            for(char c : key) // RFC 6901 escapes
            {
                if(c == '~')
                    r.pointer_.append("~0");
                else if(c == '/')
                    r.pointer_.append("~1");
                else
                    r.pointer_.push_back(c);
            }
        }

        enter(scenario_reader& reader, std::size_t index) : r(reader), size(reader.pointer_.size())
        {
            r.pointer_.push_back('/');
            r.pointer_.append(std::to_string(index));
        }

        ~enter() { r.pointer_.resize(size); }
    };

    [[noreturn]] void fail_at(std::string_view key, std::string const& message)
    {
        enter e(*this, key);
        fail(message);
    }

    json::object const& object(json::value const& v) const
    {
        if(!v.is_object())
            fail("expected an object");
        return v.get_object();
    }

    json::value const& required(json::object const& o, std::string_view key)
    {
        auto const* v = o.if_contains(key);
        if(!v)
            fail("missing required key '" + std::string(key) + "'");
        return *v;
    }

    void check_keys(json::object const& o, std::initializer_list<std::string_view> allowed)
    {
        for(auto const& kv : o)
        {
            if(std::find(allowed.begin(), allowed.end(), std::string_view(kv.key())) != allowed.end())
                continue;
            std::string list;
            for(auto k : allowed)
                list.append(list.empty() ? "" : ", ").append(k);
            fail_at(kv.key(), "unknown key (expected one of: " + list + ")");
        }
    }

    std::string string(json::value const& v, std::string_view key)
    {
        if(!v.is_string())
            fail_at(key, "expected a string");
        return std::string(v.get_string());
    }

    json::array const& array(json::value const& v, std::string_view key)
    {
        if(!v.is_array())
            fail_at(key, "expected an array");
        return v.get_array();
    }

    std::uint64_t uint(json::value const& v, std::string_view key, std::uint64_t max)
    {
        std::uint64_t n = 0;
        if(v.is_uint64())
            n = v.get_uint64();
        else if(v.is_int64() && v.get_int64() >= 0)
            n = static_cast<std::uint64_t>(v.get_int64());
        else
            fail_at(key, "expected a non-negative integer");
        if(n > max)
            fail_at(key, "must be at most " + std::to_string(max));
        return n;
    }

    // A header value: a string, or a number written as JSON writes it.
    std::string header_value(json::value const& v, std::string_view key)
    {
        if(v.is_string())
            return std::string(v.get_string());
        if(v.is_number() || v.is_bool())
            return to_json_text(v);
        fail_at(key, "expected a string or a number");
    }

    scripted_text text(json::value const& v, std::string_view key)
    {
        if(v.is_string())
            return scripted_text(std::string(v.get_string()));
        if(auto const* a = v.if_array())
        {
            enter e(*this, key);
            std::vector<std::string> pieces;
            for(std::size_t i = 0; i < a->size(); ++i)
            {
                if(!(*a)[i].is_string())
                    fail_at(std::to_string(i), "expected a string (a piece of text)");
                pieces.emplace_back((*a)[i].get_string());
            }
            return scripted_text::exact(std::move(pieces));
        }
        fail_at(key, "expected a string, or an array of strings (the pieces as streamed)");
    }

    scripted_response read_response(json::value const& v)
    {
        auto const& o = object(v);
        check_keys(o,
            {"when_last_tool_result_contains", "when_user_message_contains", "when_tools_offered", "thinking",
                "thinking_signature", "text", "tool_calls", "stop_reason", "usage", "faults"});
        scripted_response r;
        if(auto const* w = o.if_contains("when_last_tool_result_contains"))
            r.when_last_tool_result_contains = string(*w, "when_last_tool_result_contains");
        if(auto const* w = o.if_contains("when_user_message_contains"); w && w->is_array())
        {
            // All of them: the first in the field, the others beside it.
            auto const& all = w->get_array();
            for(std::size_t i = 0; i < all.size(); ++i)
            {
                auto text = string(all[i], "when_user_message_contains");
                if(i == 0)
                    r.when_user_message_contains = std::move(text);
                else
                    r.when_user_message_also_contains.push_back(std::move(text));
            }
        }
        else if(w)
            r.when_user_message_contains = string(*w, "when_user_message_contains");
        if(auto const* w = o.if_contains("when_tools_offered"))
        {
            if(!w->is_bool())
                fail_at("when_tools_offered", "expected true or false");
            r.when_tools_offered = w->get_bool();
        }
        if(auto const* t = o.if_contains("thinking"))
            r.thinking = text(*t, "thinking");
        if(auto const* t = o.if_contains("thinking_signature"))
            r.thinking_signature = string(*t, "thinking_signature");
        if(auto const* t = o.if_contains("text"))
            r.text = text(*t, "text");
        if(auto const* s = o.if_contains("stop_reason"))
            r.stop_reason = string(*s, "stop_reason");
        if(auto const* u = o.if_contains("usage"))
        {
            enter e(*this, "usage");
            auto const& uo = object(*u);
            check_keys(uo, {"input_tokens", "output_tokens"});
            if(auto const* n = uo.if_contains("input_tokens"))
                r.input_tokens = uint(*n, "input_tokens", UINT32_MAX);
            if(auto const* n = uo.if_contains("output_tokens"))
                r.output_tokens = uint(*n, "output_tokens", UINT32_MAX);
        }
        if(auto const* calls = o.if_contains("tool_calls"))
        {
            auto const& list = array(*calls, "tool_calls");
            enter e(*this, "tool_calls");
            for(std::size_t i = 0; i < list.size(); ++i)
            {
                enter ei(*this, i);
                r.tool_calls.push_back(read_tool_call(list[i]));
            }
        }
        if(auto const* faults = o.if_contains("faults"))
        {
            auto const& list = array(*faults, "faults");
            enter e(*this, "faults");
            for(std::size_t i = 0; i < list.size(); ++i)
            {
                enter ei(*this, i);
                r.faults.push_back(read_fault(list[i]));
            }
        }
        return r;
    }

    scripted_embeddings read_embeddings(json::value const& v)
    {
        auto const& o = object(v);
        check_keys(o, {"dimensions", "faults"});
        scripted_embeddings e;
        if(auto const* d = o.if_contains("dimensions"))
        {
            e.dimensions = static_cast<unsigned>(uint(*d, "dimensions", 16384));
            if(e.dimensions == 0)
                fail_at("dimensions", "must be at least 1");
        }
        if(auto const* faults = o.if_contains("faults"))
        {
            auto const& list = array(*faults, "faults");
            enter f(*this, "faults");
            for(std::size_t i = 0; i < list.size(); ++i)
            {
                enter fi(*this, i);
                e.faults.push_back(read_fault(list[i]));
            }
        }
        return e;
    }

    scripted_tool_call read_tool_call(json::value const& v)
    {
        auto const& o = object(v);
        check_keys(o, {"name", "input", "input_fragments", "id"});
        scripted_tool_call c;
        c.name = string(required(o, "name"), "name");
        if(c.name.empty())
            fail_at("name", "must not be empty");
        if(auto const* in = o.if_contains("input"))
        {
            if(!in->is_object())
                fail_at("input", "expected an object (the tool's arguments)");
            c.input = *in;
        }
        if(auto const* f = o.if_contains("input_fragments"))
        {
            auto const& list = array(*f, "input_fragments");
            enter e(*this, "input_fragments");
            for(std::size_t i = 0; i < list.size(); ++i)
            {
                if(!list[i].is_string())
                    fail_at(std::to_string(i), "expected a string (a fragment of the argument JSON text)");
                c.input_fragments.emplace_back(list[i].get_string());
            }
        }
        if(auto const* id = o.if_contains("id"))
            c.id = string(*id, "id");
        return c;
    }

    fault read_fault(json::value const& v)
    {
        auto const& o = object(v);
        static constexpr std::pair<std::string_view, fault_kind> kinds[] = {{"http_error", fault_kind::http_error},
            {"midstream_error", fault_kind::midstream_error}, {"truncate", fault_kind::truncate},
            {"stall", fault_kind::stall}, {"disconnect", fault_kind::disconnect},
            {"slow_tokens", fault_kind::slow_tokens}};
        std::string const kind = string(required(o, "kind"), "kind");
        auto const it = std::find_if(std::begin(kinds), std::end(kinds),
            [&](auto const& k) { return k.first == kind; });
        if(it == std::end(kinds))
            fail_at("kind",
                "unknown fault '" + kind +
                    "' (expected http_error, midstream_error, truncate, stall, disconnect or slow_tokens)");
        fault f;
        f.kind = it->second;
        switch(f.kind)
        {
        case fault_kind::http_error:
            check_keys(o,
                {"kind", "status", "retry_after", "retry_after_ms", "x_should_retry", "error_type", "message",
                    "times"});
            f.status = static_cast<unsigned>(uint(required(o, "status"), "status", 599));
            if(f.status < 400)
                fail_at("status", "an http_error needs a status from 400 to 599");
            if(auto const* h = o.if_contains("retry_after"))
                f.retry_after = header_value(*h, "retry_after");
            if(auto const* h = o.if_contains("retry_after_ms"))
                f.retry_after_ms = header_value(*h, "retry_after_ms");
            if(auto const* h = o.if_contains("x_should_retry"))
                f.x_should_retry = header_value(*h, "x_should_retry");
            break;
        case fault_kind::midstream_error:
            check_keys(o, {"kind", "after_events", "error_type", "message", "times"});
            break;
        case fault_kind::truncate: check_keys(o, {"kind", "after_events", "times"}); break;
        case fault_kind::stall:
            check_keys(o, {"kind", "after_events", "ms", "times"});
            if(auto const* ms = o.if_contains("ms"))
                f.duration = std::chrono::milliseconds(uint(*ms, "ms", 86'400'000));
            break;
        case fault_kind::disconnect:
            check_keys(o, {"kind", "after_events", "reset", "times"});
            if(auto const* r = o.if_contains("reset"))
            {
                if(!r->is_bool())
                    fail_at("reset", "expected true or false");
                f.reset = r->get_bool();
            }
            break;
        case fault_kind::slow_tokens:
            check_keys(o, {"kind", "token_interval_ms", "times"});
            f.duration = std::chrono::milliseconds(uint(required(o, "token_interval_ms"), "token_interval_ms",
                3'600'000));
            break;
        }
        if(auto const* n = o.if_contains("after_events"))
            f.after_events = uint(*n, "after_events", 1'000'000);
        if(auto const* t = o.if_contains("error_type"))
            f.error_type = string(*t, "error_type");
        if(auto const* m = o.if_contains("message"))
            f.error_message = string(*m, "message");
        if(auto const* t = o.if_contains("times"))
            f.times = uint(*t, "times", 1'000'000'000);
        return f;
    }

    std::string file_;
    std::string pointer_;
};

// Parses JSON text, reporting a syntax error with its line and column.
inline json::value parse_json_text(std::string_view text, std::string const& file)
{
    json::stream_parser p;
    system::error_code ec;
    std::size_t const consumed = p.write_some(text.data(), text.size(), ec);
    if(!ec)
        p.finish(ec);
    if(ec)
    {
        std::size_t line = 1, column = 1;
        for(std::size_t i = 0; i < consumed && i < text.size(); ++i)
        {
            if(text[i] == '\n')
                ++line, column = 1;
            else if(!agentio::detail::is_utf8_continuation(text[i]))
                ++column;
        }
        throw scenario_error(file, {},
            "invalid JSON at line " + std::to_string(line) + ", column " + std::to_string(column) + ": " +
                ec.message());
    }
    return p.release();
}

inline void read_scenario_file(std::filesystem::path const& path, std::vector<scenario>& out)
{
    std::string const file = path.string();
    std::ifstream in(path, std::ios::binary);
    if(!in)
        throw scenario_error(file, {}, "cannot open the file");
    std::string const text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    json::value const jv = parse_json_text(text, file);
    scenario_reader reader(file);
    if(auto const* list = jv.if_array())
    {
        for(std::size_t i = 0; i < list->size(); ++i)
            out.push_back(reader.read_scenario_in_list((*list)[i], i));
    }
    else
        out.push_back(reader.read_scenario(jv));
}

} // namespace detail

} // namespace agentio::testing

#endif
