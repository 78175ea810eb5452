//
// agentio/testing/impl/fake_llm.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//

#ifndef AGENTIO_TESTING_IMPL_FAKE_LLM_HPP
#define AGENTIO_TESTING_IMPL_FAKE_LLM_HPP

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
        check_keys(o, {"name", "description", "model", "token_interval_ms", "turns"});
        scenario s;
        s.name = string(required(o, "name"), "name");
        if(s.name.empty())
            fail_at("name", "must not be empty");
        if(auto const* v = o.if_contains("model"))
            s.model = string(*v, "model");
        if(auto const* v = o.if_contains("token_interval_ms"))
            s.token_interval = std::chrono::milliseconds(uint(*v, "token_interval_ms", 3'600'000));
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
        check_keys(o, {"when_last_tool_result_contains", "thinking", "thinking_signature", "text", "tool_calls",
                          "stop_reason", "usage", "faults"});
        scripted_response r;
        if(auto const* w = o.if_contains("when_last_tool_result_contains"))
            r.when_last_tool_result_contains = string(*w, "when_last_tool_result_contains");
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
        auto const it = std::find_if(std::begin(kinds), std::end(kinds), [&](auto const& k) { return k.first == kind; });
        if(it == std::end(kinds))
            fail_at("kind", "unknown fault '" + kind +
                    "' (expected http_error, midstream_error, truncate, stall, disconnect or slow_tokens)");
        fault f;
        f.kind = it->second;
        switch(f.kind)
        {
        case fault_kind::http_error:
            check_keys(o, {"kind", "status", "retry_after", "retry_after_ms", "x_should_retry", "error_type",
                              "message", "times"});
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
        case fault_kind::truncate:
            check_keys(o, {"kind", "after_events", "times"});
            break;
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
            else if(!is_continuation(text[i]))
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

} // detail

inline scenario parse_scenario(json::value const& jv)
{
    return detail::scenario_reader({}).read_scenario(jv);
}

inline std::vector<scenario> read_scenarios(std::filesystem::path const& path)
{
    std::vector<scenario> out;
    std::error_code ec;
    if(std::filesystem::is_directory(path, ec))
    {
        std::vector<std::filesystem::path> files;
        for(auto const& entry : std::filesystem::directory_iterator(path, ec))
            if(entry.is_regular_file() && entry.path().extension() == ".json")
                files.push_back(entry.path());
        if(ec)
            throw scenario_error(path.string(), {}, "cannot list the directory: " + ec.message());
        std::sort(files.begin(), files.end()); // a stable order: the first definition of a name is reported
        for(auto const& f : files)
            detail::read_scenario_file(f, out);
    }
    else
        detail::read_scenario_file(path, out);

    std::map<std::string, std::size_t> seen;
    for(std::size_t i = 0; i < out.size(); ++i)
        if(!seen.emplace(out[i].name, i).second)
            throw scenario_error(path.string(), {}, "scenario '" + out[i].name + "' is defined twice");
    return out;
}

// ================================================================================
// Shared state
// ================================================================================

namespace detail {

struct fake_llm_state
{
    explicit fake_llm_state(fake_llm_options o) : options(std::move(o)) {}

    fake_llm_options const options;

    mutable std::mutex mutex;
    std::map<std::string, std::shared_ptr<scenario const>> scenarios; // by name
    std::unordered_map<std::string, std::size_t> attempts;            // see next_attempt
    std::deque<recorded_request> recorded;
    tcp::endpoint endpoint; // bound by start()

    std::shared_ptr<scenario const> find(std::string const& name) const
    {
        std::lock_guard lock(mutex);
        auto const it = scenarios.find(name);
        return it == scenarios.end() ? nullptr : it->second;
    }

    // The number of earlier attempts with this key, counting this one.
    std::size_t next_attempt(std::string key)
    {
        std::lock_guard lock(mutex);
        return attempts[std::move(key)]++;
    }

    void record(http::request const& req, json::value const& body, std::chrono::steady_clock::time_point at)
    {
        if(options.max_recorded_requests == 0)
            return;
        recorded_request r;
        r.method = std::string(req.method_string());
        r.target = std::string(req.target());
        for(auto const& f : req)
            r.headers.insert(f.name_string(), f.value());
        r.body = body;
        r.received = at;
        std::lock_guard lock(mutex);
        recorded.push_back(std::move(r));
        while(recorded.size() > options.max_recorded_requests)
            recorded.pop_front();
    }
};

// ================================================================================
// Reading a request: validation, the round, the last tool result
// ================================================================================

// An error answer, in the vocabulary of both providers.
struct api_failure
{
    unsigned status = 400;
    std::string type;    // error.type
    std::string message; // error.message
    std::string param;   // OpenAI only; empty: null
    std::string code;    // OpenAI only; empty: null
};

inline api_failure anthropic_invalid(std::string message)
{
    return {400, "invalid_request_error", std::move(message), {}, {}};
}

inline api_failure openai_invalid(std::string message, std::string param = {}, std::string code = {})
{
    return {400, "invalid_request_error", std::move(message), std::move(param), std::move(code)};
}

// What the fake needs to know about a valid request.
struct conversation
{
    std::string model;
    bool stream = false;
    bool include_usage = false; // OpenAI stream_options.include_usage
    std::size_t round = 0;
    std::string last_tool_result;
    std::uint64_t messages_hash = 0;
};

// The text of a tool result's content: a string, or the text of its blocks / parts.
inline std::string content_text(json::value const& content)
{
    if(auto const* s = content.if_string())
        return std::string(*s);
    std::string out;
    if(auto const* a = content.if_array())
        for(auto const& part : *a)
            if(auto const* o = part.if_object())
                if(auto const* t = o->if_contains("text"); t && t->is_string())
                    out.append(t->get_string());
    return out;
}

inline bool block_is(json::value const& block, std::string_view type)
{
    auto const* o = block.if_object();
    if(!o)
        return false;
    auto const* t = o->if_contains("type");
    return t && t->is_string() && t->get_string() == type;
}

inline std::string_view string_or_empty(json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

inline std::string index_path(std::string_view prefix, std::size_t i)
{
    return std::string(prefix) + std::to_string(i);
}

// Validates an Anthropic request as the API would where that is cheap and
// catches client bugs; fills `c` when valid.
inline std::optional<api_failure> read_anthropic(json::object const& body, std::string_view version, conversation& c)
{
    auto const* model = body.if_contains("model");
    if(!model)
        return anthropic_invalid("model: Field required");
    if(!model->is_string())
        return anthropic_invalid("model: Input should be a valid string");
    auto const* max_tokens = body.if_contains("max_tokens");
    if(!max_tokens)
        return anthropic_invalid("max_tokens: Field required");
    if(!max_tokens->is_int64() && !max_tokens->is_uint64())
        return anthropic_invalid("max_tokens: Input should be a valid integer");
    auto const* messages = body.if_contains("messages");
    if(!messages)
        return anthropic_invalid("messages: Field required");
    if(!messages->is_array())
        return anthropic_invalid("messages: Input should be a valid list");
    if(version == "2026-10-21")
        for(std::string_view key : {"temperature", "top_p", "top_k"})
            if(body.contains(key))
                return anthropic_invalid(std::string(key) +
                    ": Extra inputs are not permitted (not supported with anthropic-version 2026-10-21)");

    auto const& list = messages->get_array();
    std::vector<std::string_view> open_tool_uses; // ids of the previous assistant message's tool_use blocks
    std::size_t last_plain_user = list.size();    // index of the last user message that is not only tool results
    for(std::size_t i = 0; i < list.size(); ++i)
    {
        auto const* m = list[i].if_object();
        if(!m)
            return anthropic_invalid(index_path("messages.", i) + ": Input should be a valid dictionary");
        auto const role = string_or_empty(*m, "role");
        if(role == "system")
            return anthropic_invalid(
                "messages: Unexpected role \"system\". The Messages API accepts a top-level `system` parameter, "
                "not \"system\" as an input message role.");
        if(role != "user" && role != "assistant")
            return anthropic_invalid(index_path("messages.", i) + ".role: Input should be 'user' or 'assistant'");
        auto const* content = m->if_contains("content");
        if(!content)
            return anthropic_invalid(index_path("messages.", i) + ".content: Field required");
        json::array const empty;
        auto const& blocks = content->is_array() ? content->get_array() : empty;

        std::vector<std::string_view> uses;
        if(role == "assistant")
        {
            for(auto const& b : blocks)
                if(block_is(b, "tool_use"))
                    uses.push_back(string_or_empty(b.get_object(), "id"));
        }
        else
        {
            // The tool_result blocks at the beginning answer the previous tool_use blocks.
            std::size_t leading = 0;
            bool any_result = false;
            for(std::size_t k = 0; k < blocks.size(); ++k)
            {
                if(!block_is(blocks[k], "tool_result"))
                    continue;
                any_result = true;
                auto const& block = blocks[k].get_object();
                auto const id = string_or_empty(block, "tool_use_id");
                if(std::find(open_tool_uses.begin(), open_tool_uses.end(), id) == open_tool_uses.end())
                    return anthropic_invalid(index_path("messages.", i) + ".content." + std::to_string(k) +
                        ": unexpected `tool_use_id` found in `tool_result` blocks: " + std::string(id) +
                        ". Each `tool_result` block must have a corresponding `tool_use` block in the previous "
                        "message.");
                if(k == leading)
                    ++leading;
                if(auto const* rc = block.if_contains("content"))
                    c.last_tool_result = content_text(*rc);
                else
                    c.last_tool_result.clear();
            }
            if(leading < open_tool_uses.size())
                return anthropic_invalid(index_path("messages.", i) + ": Did not find " +
                    std::to_string(open_tool_uses.size() - leading) +
                    " tool_result block(s) at the beginning of this message. Messages following tool_use blocks "
                    "must begin with a matching number of tool_result blocks.");
            if(!any_result)
                last_plain_user = i;
        }
        open_tool_uses = std::move(uses);
    }

    c.model = std::string(model->get_string());
    if(auto const* s = body.if_contains("stream"))
        c.stream = s->is_bool() && s->get_bool();
    c.round = 0;
    for(std::size_t i = last_plain_user == list.size() ? 0 : last_plain_user + 1; i < list.size(); ++i)
        if(string_or_empty(list[i].get_object(), "role") == "assistant")
            ++c.round;
    c.messages_hash = fnv1a(to_json_text(*messages));
    return std::nullopt;
}

// The same for an OpenAI Chat Completions request.
inline std::optional<api_failure> read_openai(json::object const& body, conversation& c)
{
    auto const* model = body.if_contains("model");
    if(!model || !model->is_string())
        return openai_invalid("you must provide a model parameter");
    auto const* messages = body.if_contains("messages");
    if(!messages)
        return openai_invalid("Missing required parameter: 'messages'.", "messages", "missing_required_parameter");
    if(!messages->is_array())
        return openai_invalid("Invalid type for 'messages': expected an array of objects, but got " +
                std::string(to_string(messages->kind())) + " instead.",
            "messages", "invalid_type");

    auto const& list = messages->get_array();
    std::vector<std::string_view> unanswered; // tool_call ids of the last assistant message not yet answered
    std::size_t calls_at = 0;                 // that message's index
    bool in_tool_run = false;                 // right after an assistant message with tool_calls
    auto unanswered_error = [&] {
        std::string ids;
        for(auto id : unanswered)
            ids.append(ids.empty() ? "" : ", ").append(id);
        return openai_invalid("An assistant message with 'tool_calls' must be followed by tool messages responding "
                              "to each 'tool_call_id'. The following tool_call_ids did not have response messages: " +
                ids,
            "messages.[" + std::to_string(calls_at) + "].role");
    };
    std::size_t last_user = list.size();
    for(std::size_t i = 0; i < list.size(); ++i)
    {
        auto const* m = list[i].if_object();
        if(!m)
            return openai_invalid("Invalid type for 'messages[" + std::to_string(i) +
                    "]': expected an object, but got " + std::string(to_string(list[i].kind())) + " instead.",
                "messages[" + std::to_string(i) + "]", "invalid_type");
        auto const role = string_or_empty(*m, "role");
        static constexpr std::string_view roles[] = {"system", "assistant", "user", "function", "tool", "developer"};
        if(std::find(std::begin(roles), std::end(roles), role) == std::end(roles))
            return openai_invalid("Invalid value: '" + std::string(role) +
                    "'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.",
                "messages[" + std::to_string(i) + "].role", "invalid_value");
        if(role == "tool")
        {
            auto const id = string_or_empty(*m, "tool_call_id");
            auto const it = std::find(unanswered.begin(), unanswered.end(), id);
            if(!in_tool_run || it == unanswered.end())
                return openai_invalid("Invalid parameter: messages with role 'tool' must be a response to a "
                                      "preceeding message with 'tool_calls'.",
                    "messages.[" + std::to_string(i) + "].role");
            unanswered.erase(it);
            if(auto const* content = m->if_contains("content"))
                c.last_tool_result = content_text(*content);
            continue;
        }
        if(in_tool_run && !unanswered.empty())
            return unanswered_error();
        in_tool_run = false;
        if(role == "user")
            last_user = i;
        if(role == "assistant")
            if(auto const* calls = m->if_contains("tool_calls"); calls && calls->is_array() && !calls->get_array().empty())
            {
                in_tool_run = true;
                calls_at = i;
                unanswered.clear();
                for(auto const& call : calls->get_array())
                    if(auto const* co = call.if_object())
                        unanswered.push_back(string_or_empty(*co, "id"));
            }
    }
    if(in_tool_run && !unanswered.empty())
        return unanswered_error();

    c.model = std::string(model->get_string());
    if(auto const* s = body.if_contains("stream"))
        c.stream = s->is_bool() && s->get_bool();
    if(auto const* so = body.if_contains("stream_options"); so && so->is_object())
        if(auto const* iu = so->get_object().if_contains("include_usage"))
            c.include_usage = iu->is_bool() && iu->get_bool();
    c.round = 0;
    for(std::size_t i = last_user == list.size() ? 0 : last_user + 1; i < list.size(); ++i)
        if(string_or_empty(list[i].get_object(), "role") == "assistant")
            ++c.round;
    c.messages_hash = fnv1a(to_json_text(*messages));
    return std::nullopt;
}

// ================================================================================
// What to answer: the plan of one response
// ================================================================================

enum class block_kind
{
    thinking,
    text,
    tool_use
};

struct planned_block
{
    block_kind kind = block_kind::text;
    std::vector<std::string> pieces; // text or thinking pieces; tool_use: argument fragments
    std::string id;                  // tool_use
    std::string name;                // tool_use
    std::string signature;           // thinking
    json::value input;               // tool_use, for non-streamed Anthropic answers
    std::string arguments;           // tool_use, for non-streamed OpenAI answers

    std::string joined() const
    {
        std::string s;
        for(auto const& p : pieces)
            s += p;
        return s;
    }
};

struct response_plan
{
    std::string model;
    std::vector<planned_block> blocks;
    std::string stop_reason;
    std::uint64_t input_tokens = 0;
    std::uint64_t output_tokens = 0;
    std::chrono::milliseconds interval{0};
};

inline std::string substitute(std::string_view text, std::string_view last_tool_result)
{
    static constexpr std::string_view placeholder = "{{last_tool_result}}";
    std::string out;
    for(;;)
    {
        auto const at = text.find(placeholder);
        out.append(text.substr(0, at));
        if(at == std::string_view::npos)
            return out;
        out.append(last_tool_result);
        text.remove_prefix(at + placeholder.size());
    }
}

inline std::vector<std::string> cut_text(scripted_text const& t, std::string_view last_tool_result, provider p,
    std::size_t piece_chars)
{
    std::vector<std::string> pieces;
    if(!t.split)
    {
        for(auto const& piece : t.pieces)
            pieces.push_back(substitute(piece, last_tool_result));
        return pieces;
    }
    std::string whole;
    for(auto const& piece : t.pieces)
        whole += substitute(piece, last_tool_result);
    std::string_view rest = whole;
    for(std::size_t i = 0; !rest.empty(); ++i)
    {
        std::size_t const n = std::max<std::size_t>(1, next_text_piece(rest, i, p, piece_chars));
        pieces.emplace_back(rest.substr(0, n));
        rest.remove_prefix(n);
    }
    return pieces;
}

inline response_plan make_plan(scripted_response const& r, scenario const& s, conversation const& c, provider p,
    fake_llm_options const& options, std::size_t request_bytes)
{
    response_plan plan;
    plan.model = s.model.empty() ? c.model : s.model;
    plan.interval = s.token_interval.value_or(options.token_interval);
    std::uint64_t output_bytes = 0;

    if(p == provider::anthropic && !r.thinking.empty())
    {
        planned_block b;
        b.kind = block_kind::thinking;
        b.pieces = cut_text(r.thinking, c.last_tool_result, p, options.piece_chars);
        b.signature = r.thinking_signature.empty() ? make_signature(b.joined()) : r.thinking_signature;
        plan.blocks.push_back(std::move(b));
    }
    if(!r.text.empty())
    {
        planned_block b;
        b.kind = block_kind::text;
        b.pieces = cut_text(r.text, c.last_tool_result, p, options.piece_chars);
        plan.blocks.push_back(std::move(b));
    }
    for(auto const& call : r.tool_calls)
    {
        planned_block b;
        b.kind = block_kind::tool_use;
        b.name = call.name;
        b.id = !call.id.empty() ? call.id
            : p == provider::anthropic ? anthropic_tool_use_id()
                                       : openai_call_id();
        b.input = call.input;
        bool const derived = !call.input_fragments.empty() && call.input.is_object() && call.input.get_object().empty();
        if(!call.input_fragments.empty())
            b.pieces = call.input_fragments;
        else
        {
            std::string text;
            append_json_spaced(text, call.input);
            std::string_view rest = text;
            for(std::size_t i = 0; !rest.empty(); ++i)
            {
                std::size_t const n = std::max<std::size_t>(1, next_fragment(rest, i, options.piece_chars));
                b.pieces.emplace_back(rest.substr(0, n));
                rest.remove_prefix(n);
            }
        }
        b.arguments = to_json_text(call.input);
        if(derived)
        {
            // The input is what the fragments say; cut short (max_tokens), it
            // stays {} and the OpenAI arguments keep the partial text.
            system::error_code ec;
            auto const parsed = json::parse(b.joined(), ec);
            if(!ec && parsed.is_object())
                b.input = parsed;
            b.arguments = ec ? b.joined() : to_json_text(parsed);
        }
        plan.blocks.push_back(std::move(b));
    }
    for(auto const& b : plan.blocks)
        for(auto const& piece : b.pieces)
            output_bytes += piece.size();

    plan.stop_reason = !r.stop_reason.empty() ? r.stop_reason : r.tool_calls.empty() ? "end_turn" : "tool_use";
    plan.input_tokens = r.input_tokens.value_or(std::max<std::uint64_t>(1, request_bytes / 4));
    plan.output_tokens = r.output_tokens.value_or(std::max<std::uint64_t>(1, (output_bytes + 3) / 4));
    return plan;
}

// ================================================================================
// Non-streamed bodies
// ================================================================================

inline std::string anthropic_message_body(response_plan const& plan)
{
    std::string out = R"({"id":)";
    append_json_string(out, anthropic_message_id());
    out.append(R"(,"type":"message","role":"assistant","model":)");
    append_json_string(out, plan.model);
    out.append(R"(,"content":[)");
    bool first = true;
    for(auto const& b : plan.blocks)
    {
        if(!first)
            out.push_back(',');
        first = false;
        switch(b.kind)
        {
        case block_kind::thinking:
            out.append(R"({"type":"thinking","thinking":)");
            append_json_string(out, b.joined());
            out.append(R"(,"signature":)");
            append_json_string(out, b.signature);
            out.push_back('}');
            break;
        case block_kind::text:
            out.append(R"({"type":"text","text":)");
            append_json_string(out, b.joined());
            out.push_back('}');
            break;
        case block_kind::tool_use:
            out.append(R"({"type":"tool_use","id":)");
            append_json_string(out, b.id);
            out.append(R"(,"name":)");
            append_json_string(out, b.name);
            out.append(R"(,"input":)");
            append_json(out, b.input);
            out.push_back('}');
            break;
        }
    }
    out.append(R"(],"stop_reason":)");
    append_json_string(out, plan.stop_reason);
    out.append(R"(,"stop_sequence":null,"usage":{"input_tokens":)");
    append_json_number(out, static_cast<std::int64_t>(plan.input_tokens));
    out.append(R"(,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":)");
    append_json_number(out, static_cast<std::int64_t>(plan.output_tokens));
    out.append(R"(,"service_tier":"standard"}})");
    return out;
}

inline std::int64_t unix_now()
{
    return static_cast<std::int64_t>(std::time(nullptr));
}

inline void append_openai_usage(std::string& out, response_plan const& plan, bool details)
{
    out.append(R"("usage":{"prompt_tokens":)");
    append_json_number(out, static_cast<std::int64_t>(plan.input_tokens));
    out.append(R"(,"completion_tokens":)");
    append_json_number(out, static_cast<std::int64_t>(plan.output_tokens));
    out.append(R"(,"total_tokens":)");
    append_json_number(out, static_cast<std::int64_t>(plan.input_tokens + plan.output_tokens));
    if(details)
        out.append(R"(,"completion_tokens_details":{"reasoning_tokens":0})");
    out.push_back('}');
}

inline std::string openai_completion_body(response_plan const& plan)
{
    std::string out = R"({"id":)";
    append_json_string(out, openai_completion_id());
    out.append(R"(,"object":"chat.completion","created":)");
    append_json_number(out, unix_now());
    out.append(R"(,"model":)");
    append_json_string(out, plan.model);
    out.append(R"(,"system_fingerprint":)");
    append_json_string(out, openai_fingerprint());
    out.append(R"(,"choices":[{"index":0,"message":{"role":"assistant","content":)");
    auto const text = std::find_if(
        plan.blocks.begin(), plan.blocks.end(), [](auto const& b) { return b.kind == block_kind::text; });
    if(text == plan.blocks.end())
        out.append("null");
    else
        append_json_string(out, text->joined());
    out.append(R"(,"refusal":null)");
    bool first = true;
    for(auto const& b : plan.blocks)
    {
        if(b.kind != block_kind::tool_use)
            continue;
        out.append(first ? R"(,"tool_calls":[)" : ",");
        first = false;
        out.append(R"({"id":)");
        append_json_string(out, b.id);
        out.append(R"(,"type":"function","function":{"name":)");
        append_json_string(out, b.name);
        out.append(R"(,"arguments":)");
        append_json_string(out, b.arguments);
        out.append("}}");
    }
    if(!first)
        out.push_back(']');
    out.append(R"(},"logprobs":null,"finish_reason":)");
    append_json_string(out, openai_finish_reason(plan.stop_reason));
    out.append("}],");
    append_openai_usage(out, plan, false);
    out.push_back('}');
    return out;
}

// ================================================================================
// Streams
// ================================================================================

inline constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

// GCC 12 note: a coroutine holding both a `co_await` whose (non-void) result
// is discarded and a `co_return co_await ...` is miscompiled: a later resume
// finds a corrupt resume index (SIGILL/SIGSEGV, invisible to ASan). Results
// are therefore always named, and awaited values returned in two steps.

// One response written on the connection by hand: the header, one HTTP chunk
// per event, the pacing between pieces, and the stream faults. A `watch`
// coroutine runs beside the producer to notice the client leaving.
class event_stream
{
public:
    event_stream(beast::tcp_stream& stream, provider p, std::chrono::steady_clock::duration write_timeout)
        : stream_(stream)
        , timer_(stream.get_executor())
        , write_timeout_(write_timeout)
        , provider_(p)
    {
    }

    asio::any_io_executor get_executor() { return timer_.get_executor(); }
    void set_interval(std::chrono::milliseconds interval) noexcept { interval_ = interval; }
    void set_ending_fault(fault const* f) noexcept { ending_ = f; }

    // Writes the response header; false if the stream must stop.
    asio::awaitable<bool> start(beast::http::response<beast::http::empty_body>& header)
    {
        chunked_ = header.version() >= 11;
        header.chunked(chunked_);
        header.keep_alive(false); // the server closes the connection after a written response
        beast::http::response_serializer<beast::http::empty_body> sr(header);
        stream_.expires_after(write_timeout_);
        auto [ec, n] = co_await beast::http::async_write_header(stream_, sr, use_tuple);
        if(ec)
            co_return stop_gone();
        bool const go_on = co_await after_event();
        co_return go_on;
    }

    // Sends one event; `piece` events wait for the token interval first.
    // False: stop producing (a fault ended the stream, or the client left).
    asio::awaitable<bool> send(std::string_view type, std::string_view data, bool piece)
    {
        if(stopped_)
            co_return false;
        if(piece && interval_.count() > 0)
        {
            timer_.expires_after(interval_);
            [[maybe_unused]] auto const [ec] = co_await timer_.async_wait(use_tuple); // cancelled: see gone_
            if(gone_)
                co_return stop_gone();
        }
        buffer_.clear();
        sse::append_event(buffer_, {.type = type, .data = data});
        if(!co_await write_buffer())
            co_return false;
        ++events_;
        bool const go_on = co_await after_event();
        co_return go_on;
    }

    // Ends the body with the last chunk, unless the connection is gone.
    asio::awaitable<void> finish()
    {
        if(gone_ || closed_ || !chunked_)
            co_return;
        stream_.expires_after(write_timeout_);
        auto [ec, n] = co_await asio::async_write(stream_, beast::http::make_chunk_last(), use_tuple);
        if(ec)
            gone_ = true;
    }

    // Waits `d` (zero: until the client leaves). False if the client left.
    asio::awaitable<bool> pause(std::chrono::milliseconds d)
    {
        if(d.count() > 0)
            timer_.expires_after(d);
        else
            timer_.expires_at(asio::steady_timer::time_point::max());
        [[maybe_unused]] auto const [ec] = co_await timer_.async_wait(use_tuple); // cancelled: see gone_
        co_return !gone_;
    }

    // Closes the connection at once: FIN, or RST with `reset`.
    void close(bool reset)
    {
        system::error_code ignored;
        if(reset)
            stream_.socket().set_option(asio::socket_base::linger(true, 0), ignored);
        stream_.socket().close(ignored);
        closed_ = stopped_ = true;
    }

    // Reads until the client leaves (or the producer is done and cancels
    // this): nothing is expected from it while the response streams.
    asio::awaitable<void> watch()
    {
        co_await asio::this_coro::throw_if_cancelled(false);
        char sink[64];
        for(;;)
        {
            auto [ec, n] = co_await stream_.socket().async_read_some(asio::buffer(sink), use_tuple);
            if(!ec)
                continue;
            if(ec != asio::error::operation_aborted && !closed_)
            {
                gone_ = true;
                timer_.cancel();
            }
            co_return;
        }
    }

private:
    bool stop_gone() noexcept
    {
        gone_ = stopped_ = true;
        return false;
    }

    asio::awaitable<bool> write_buffer()
    {
        stream_.expires_after(write_timeout_);
        system::error_code ec;
        std::size_t n = 0;
        if(chunked_)
            std::tie(ec, n) =
                co_await asio::async_write(stream_, beast::http::make_chunk(asio::buffer(buffer_)), use_tuple);
        else
            std::tie(ec, n) = co_await asio::async_write(stream_, asio::buffer(buffer_), use_tuple);
        if(ec || gone_)
            co_return stop_gone();
        co_return true;
    }

    // Applies the ending fault once its number of events went out.
    asio::awaitable<bool> after_event()
    {
        if(!ending_ || events_ != ending_->after_events)
            co_return true;
        fault const& f = *std::exchange(ending_, nullptr);
        switch(f.kind)
        {
        case fault_kind::midstream_error:
        {
            buffer_.clear();
            if(provider_ == provider::anthropic)
            {
                std::string_view const type =
                    f.error_type.empty() ? std::string_view("overloaded_error") : std::string_view(f.error_type);
                sse::append_event(buffer_, {.type = "error",
                                               .data = anthropic_error_event(type,
                                                   f.error_message.empty() ? anthropic_error_message(type)
                                                                           : std::string_view(f.error_message))});
            }
            else
            {
                auto e = openai_error_for(500);
                if(!f.error_type.empty())
                    e.type = f.error_type;
                if(!f.error_message.empty())
                    e.message = f.error_message;
                sse::append_event(buffer_, {.data = openai_error_body(e)});
            }
            if(co_await write_buffer())
                ++events_;
            stopped_ = true; // finish() ends the body after the error, as the API does
            co_return false;
        }
        case fault_kind::truncate:
            stopped_ = true;
            co_return false;
        case fault_kind::disconnect:
            close(f.reset);
            co_return false;
        case fault_kind::stall:
            if(co_await pause(f.duration))
                co_return true;
            co_return stop_gone();
        case fault_kind::http_error:
        case fault_kind::slow_tokens:
            break;
        }
        co_return true;
    }

    beast::tcp_stream& stream_;
    asio::steady_timer timer_;
    std::chrono::steady_clock::duration write_timeout_;
    provider provider_;
    std::chrono::milliseconds interval_{0};
    fault const* ending_ = nullptr;
    std::string buffer_; // the event being written, reused
    std::size_t events_ = 0;
    bool chunked_ = true;
    bool stopped_ = false; // the producer must stop
    bool gone_ = false;    // the client left or the connection failed
    bool closed_ = false;  // we closed the connection
};

// The producer of a response and `es.watch()` as a group: whichever ends
// first cancels the other. A plain function on purpose: with GCC 12, an
// awaitable handed to a coroutine as a by-value parameter can be destroyed
// by the caller while the callee still uses it (docs/engineering-notes.md);
// co_spawn is an ordinary function, so the producer goes there directly.
inline auto beside_watch(event_stream& es, asio::awaitable<void> producer)
{
    auto const ex = es.get_executor();
    return asio::experimental::make_parallel_group(
        asio::co_spawn(ex, std::move(producer), asio::deferred), asio::co_spawn(ex, es.watch(), asio::deferred));
}

// Neither coroutine throws by design; should one, say so and go on.
inline void report_failures(std::exception_ptr const& a, std::exception_ptr const& b) noexcept
{
    for(auto const& ep : {a, b})
    {
        if(!ep)
            continue;
        try
        {
            std::rethrow_exception(ep);
        }
        catch(std::exception const& e)
        {
            std::fprintf(stderr, "agentio::testing::fake_llm: stream: %s\n", e.what());
        }
        catch(...)
        {
            std::fprintf(stderr, "agentio::testing::fake_llm: stream: unknown exception\n");
        }
    }
}

// The events of an Anthropic stream; returns early when `es` says stop.
inline asio::awaitable<void> send_anthropic_events(event_stream& es, response_plan const& plan)
{
    std::string data;
    data = R"({"type":"message_start","message":{"id":)";
    append_json_string(data, anthropic_message_id());
    data.append(R"(,"type":"message","role":"assistant","model":)");
    append_json_string(data, plan.model);
    data.append(R"(,"content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":)");
    append_json_number(data, static_cast<std::int64_t>(plan.input_tokens));
    data.append(R"(,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1,)"
                R"("service_tier":"standard"}}})");
    if(!co_await es.send("message_start", data, false))
        co_return;

    constexpr std::string_view ping = R"({"type": "ping"})"; // with the space, as the API writes it
    bool pinged = false;
    for(std::size_t i = 0; i < plan.blocks.size(); ++i)
    {
        auto const& b = plan.blocks[i];
        auto const index = static_cast<std::int64_t>(i);
        data = R"({"type":"content_block_start","index":)";
        append_json_number(data, index);
        switch(b.kind)
        {
        case block_kind::thinking: data.append(R"(,"content_block":{"type":"thinking","thinking":"","signature":""}})"); break;
        case block_kind::text: data.append(R"(,"content_block":{"type":"text","text":""}})"); break;
        case block_kind::tool_use:
            data.append(R"(,"content_block":{"type":"tool_use","id":)");
            append_json_string(data, b.id);
            data.append(R"(,"name":)");
            append_json_string(data, b.name);
            data.append(R"(,"input":{}}})");
            break;
        }
        if(!co_await es.send("content_block_start", data, false))
            co_return;
        if(!pinged)
        {
            pinged = true;
            if(!co_await es.send("ping", ping, false))
                co_return;
        }

        auto delta = [&](std::string_view type, std::string_view field, std::string_view value) {
            data = R"({"type":"content_block_delta","index":)";
            append_json_number(data, index);
            data.append(R"(,"delta":{"type":)");
            append_json_string(data, type);
            data.push_back(',');
            append_json_string(data, field);
            data.push_back(':');
            append_json_string(data, value);
            data.append("}}");
        };
        switch(b.kind)
        {
        case block_kind::thinking:
            for(auto const& piece : b.pieces)
            {
                delta("thinking_delta", "thinking", piece);
                if(!co_await es.send("content_block_delta", data, true))
                    co_return;
            }
            delta("signature_delta", "signature", b.signature);
            if(!co_await es.send("content_block_delta", data, false))
                co_return;
            break;
        case block_kind::text:
            for(auto const& piece : b.pieces)
            {
                delta("text_delta", "text", piece);
                if(!co_await es.send("content_block_delta", data, true))
                    co_return;
            }
            break;
        case block_kind::tool_use:
            delta("input_json_delta", "partial_json", ""); // the API's first fragment is empty
            if(!co_await es.send("content_block_delta", data, false))
                co_return;
            for(auto const& piece : b.pieces)
            {
                delta("input_json_delta", "partial_json", piece);
                if(!co_await es.send("content_block_delta", data, true))
                    co_return;
            }
            break;
        }

        // A tool call cut by max_tokens is left open, as the API leaves it.
        bool const cut = b.kind == block_kind::tool_use && i + 1 == plan.blocks.size() &&
            plan.stop_reason == "max_tokens";
        if(!cut)
        {
            data = R"({"type":"content_block_stop","index":)";
            append_json_number(data, index);
            data.push_back('}');
            if(!co_await es.send("content_block_stop", data, false))
                co_return;
        }
    }
    if(!pinged && !co_await es.send("ping", ping, false))
        co_return;

    data = R"({"type":"message_delta","delta":{"stop_reason":)";
    append_json_string(data, plan.stop_reason);
    data.append(R"(,"stop_sequence":null},"usage":{"output_tokens":)");
    append_json_number(data, static_cast<std::int64_t>(plan.output_tokens));
    data.append("}}");
    if(!co_await es.send("message_delta", data, false))
        co_return;
    [[maybe_unused]] bool const sent = co_await es.send("message_stop", R"({"type":"message_stop"})", false);
}

// The chunks of an OpenAI stream; returns early when `es` says stop.
inline asio::awaitable<void> send_openai_events(event_stream& es, response_plan const& plan, bool include_usage)
{
    // Every chunk starts alike: same id, created, model and fingerprint.
    std::string prefix = R"({"id":)";
    append_json_string(prefix, openai_completion_id());
    prefix.append(R"(,"object":"chat.completion.chunk","created":)");
    append_json_number(prefix, unix_now());
    prefix.append(R"(,"model":)");
    append_json_string(prefix, plan.model);
    prefix.append(R"(,"system_fingerprint":)");
    append_json_string(prefix, openai_fingerprint());
    prefix.append(R"(,"choices":[)");

    std::string data;
    auto chunk = [&](auto&& append_delta, std::string_view finish_reason = {}) {
        data = prefix;
        data.append(R"({"index":0,"delta":)");
        append_delta(data);
        data.append(R"(,"logprobs":null,"finish_reason":)");
        if(finish_reason.empty())
            data.append("null");
        else
            append_json_string(data, finish_reason);
        data.append("}]}");
    };

    bool const has_text = std::any_of(
        plan.blocks.begin(), plan.blocks.end(), [](auto const& b) { return b.kind == block_kind::text; });
    chunk([&](std::string& out) {
        out.append(has_text ? R"({"role":"assistant","content":"","refusal":null})"
                            : R"({"role":"assistant","content":null})");
    });
    if(!co_await es.send({}, data, false))
        co_return;

    std::int64_t call_index = 0;
    for(auto const& b : plan.blocks)
    {
        if(b.kind == block_kind::text)
        {
            for(auto const& piece : b.pieces)
            {
                chunk([&](std::string& out) {
                    out.append(R"({"content":)");
                    append_json_string(out, piece);
                    out.push_back('}');
                });
                if(!co_await es.send({}, data, true))
                    co_return;
            }
        }
        else if(b.kind == block_kind::tool_use)
        {
            chunk([&](std::string& out) {
                out.append(R"({"tool_calls":[{"index":)");
                append_json_number(out, call_index);
                out.append(R"(,"id":)");
                append_json_string(out, b.id);
                out.append(R"(,"type":"function","function":{"name":)");
                append_json_string(out, b.name);
                out.append(R"(,"arguments":""}}]})");
            });
            if(!co_await es.send({}, data, false))
                co_return;
            for(auto const& piece : b.pieces)
            {
                chunk([&](std::string& out) {
                    out.append(R"({"tool_calls":[{"index":)");
                    append_json_number(out, call_index);
                    out.append(R"(,"function":{"arguments":)");
                    append_json_string(out, piece);
                    out.append("}}]}");
                });
                if(!co_await es.send({}, data, true))
                    co_return;
            }
            ++call_index;
        }
    }
    chunk([](std::string& out) { out.append("{}"); }, openai_finish_reason(plan.stop_reason));
    if(!co_await es.send({}, data, false))
        co_return;
    if(include_usage)
    {
        data = prefix;
        data.append("],");
        append_openai_usage(data, plan, true);
        data.push_back('}');
        if(!co_await es.send({}, data, false))
            co_return;
    }
    [[maybe_unused]] bool const sent = co_await es.send({}, "[DONE]", false);
}

// A whole streamed response: the header, the events, then the end of the
// body (unless a fault closed the connection or the client left).
inline asio::awaitable<void> stream_response(event_stream& es, beast::http::response<beast::http::empty_body>& header,
    response_plan const& plan, provider p, bool include_usage)
{
    co_await asio::this_coro::throw_if_cancelled(false);
    bool const started = co_await es.start(header); // a fault may strike before the first event
    if(started && p == provider::anthropic)
        co_await send_anthropic_events(es, plan);
    else if(started)
        co_await send_openai_events(es, plan, include_usage);
    co_await es.finish();
}

// A non-streamed answer with a stream fault: held back (stall), cut
// (truncate: the header promises more than is sent), or never sent (disconnect).
inline asio::awaitable<void> answer_with_fault(event_stream& es, beast::tcp_stream& stream, http::response& res,
    fault const& f, std::chrono::steady_clock::duration write_timeout)
{
    co_await asio::this_coro::throw_if_cancelled(false);
    namespace bhttp = beast::http;
    res.keep_alive(false);
    if(f.kind == fault_kind::disconnect)
    {
        es.close(f.reset);
        co_return;
    }
    if(f.kind == fault_kind::stall && !co_await es.pause(f.duration))
        co_return;
    stream.expires_after(write_timeout);
    if(f.kind == fault_kind::truncate)
    {
        bhttp::response_serializer<bhttp::string_body> sr(res);
        auto [ec, n] = co_await bhttp::async_write_header(stream, sr, use_tuple);
        if(!ec)
        {
            // Named, not discarded: see the note at the top of this section.
            [[maybe_unused]] auto const [wec, wn] = co_await asio::async_write(
                stream, asio::buffer(res.body().data(), res.body().size() / 2), use_tuple);
        }
        es.close(false);
        co_return;
    }
    [[maybe_unused]] auto const [wec, wn] = co_await bhttp::async_write(stream, res, use_tuple);
}

// ================================================================================
// The handler
// ================================================================================

// One request's answering context: provider, request id, HTTP version.
struct exchange
{
    provider p = provider::anthropic;
    unsigned version = 11;
    bool keep_alive = true;
    std::string request_id;

    void set_common(beast::http::fields& f) const
    {
        f.set(p == provider::anthropic ? "request-id" : "x-request-id", request_id);
    }

    http::response json_response(beast::http::status status, std::string body) const
    {
        http::response res{status, version};
        res.set(beast::http::field::content_type, "application/json");
        set_common(res);
        res.body() = std::move(body);
        res.keep_alive(keep_alive);
        res.prepare_payload();
        return res;
    }

    http::response error(api_failure const& f) const
    {
        auto const status = static_cast<beast::http::status>(f.status);
        if(p == provider::anthropic)
            return json_response(status, anthropic_error_body(f.type, f.message, request_id));
        return json_response(status, openai_error_body({f.message, f.type, f.param, f.code}));
    }

    // The provider's usual error for a status, with an optional type/message.
    http::response error_for_status(unsigned status, std::string_view type, std::string_view message) const
    {
        if(p == provider::anthropic)
        {
            std::string_view const t = type.empty() ? anthropic_error_type(status) : type;
            return error({status, std::string(t),
                std::string(message.empty() ? anthropic_error_message(t) : message), {}, {}});
        }
        auto e = openai_error_for(status);
        if(!type.empty())
            e.type = type;
        if(!message.empty())
            e.message = message;
        return error({status, std::string(e.type), std::string(e.message), std::string(e.param), std::string(e.code)});
    }
};

inline std::string mask_key(std::string_view key)
{
    if(key.size() < 8)
        return std::string(key.size(), '*');
    return std::string(key.substr(0, 3)) + std::string(key.size() - 7, '*') + std::string(key.substr(key.size() - 4));
}

// The key a client sent: x-api-key, or Authorization: Bearer.
inline std::optional<std::string_view> presented_key(http::request const& req)
{
    if(auto const it = req.find("x-api-key"); it != req.end())
        return it->value();
    if(auto const it = req.find(beast::http::field::authorization); it != req.end())
    {
        std::string_view v = it->value();
        if(v.size() > 7 && beast::iequals(v.substr(0, 7), "Bearer "))
            return v.substr(7);
    }
    return std::nullopt;
}

inline std::optional<api_failure> check_key(std::string const& expected, http::request const& req, provider p)
{
    if(expected.empty())
        return std::nullopt;
    auto const key = presented_key(req);
    if(key && *key == expected)
        return std::nullopt;
    if(p == provider::anthropic)
        return api_failure{401, "authentication_error", key ? "invalid x-api-key" : "x-api-key header is required",
            {}, {}};
    if(!key)
        return api_failure{401, "invalid_request_error",
            "You didn't provide an API key. You need to provide your API key in an Authorization header using "
            "Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if "
            "you're accessing the API from your browser and are prompted for a username and password. You can "
            "obtain an API key from https://platform.openai.com/account/api-keys.",
            {}, {}};
    return api_failure{401, "invalid_request_error",
        "Incorrect API key provided: " + mask_key(*key) +
            ". You can find your API key at https://platform.openai.com/account/api-keys.",
        {}, "invalid_api_key"};
}

// The faults of a response that apply to this attempt.
struct active_faults
{
    fault const* http_error = nullptr;
    fault const* ending = nullptr; // midstream_error, truncate, stall, disconnect
    fault const* slow = nullptr;
};

inline active_faults select_faults(scripted_response const& r, std::size_t attempt)
{
    active_faults a;
    for(auto const& f : r.faults)
    {
        if(f.times != 0 && attempt >= f.times)
            continue;
        switch(f.kind)
        {
        case fault_kind::http_error:
            if(!a.http_error)
                a.http_error = &f;
            break;
        case fault_kind::slow_tokens:
            if(!a.slow)
                a.slow = &f;
            break;
        default:
            if(!a.ending)
                a.ending = &f;
        }
    }
    return a;
}

inline asio::awaitable<std::optional<beast::http::message_generator>> fake_llm_handler::operator()(
    http::request&& req, beast::tcp_stream& stream)
{
    namespace bhttp = beast::http;
    using result = std::optional<bhttp::message_generator>;
    fake_llm_state& st = *state;

    system::error_code parse_ec;
    json::value body = json::parse(req.body(), parse_ec);
    st.record(req, body, std::chrono::steady_clock::now());

    std::string_view path = req.target();
    path = path.substr(0, path.find('?')); // the SDKs add ?beta=true for beta features
    exchange x;
    x.version = req.version();
    x.keep_alive = req.keep_alive();
    if(path == "/v1/messages")
        x.p = provider::anthropic;
    else if(path == "/v1/chat/completions")
        x.p = provider::openai;
    else
    {
        x.p = req.find("anthropic-version") != req.end() ? provider::anthropic : provider::openai;
        x.request_id = x.p == provider::anthropic ? anthropic_request_id() : openai_request_id();
        std::string const what = std::string(req.method_string()) + " " + std::string(path);
        if(x.p == provider::anthropic)
            co_return result(x.error({404, "not_found_error", "Not Found: " + what, {}, {}}));
        co_return result(x.error({404, "invalid_request_error", "Invalid URL (" + what + ")", {}, {}}));
    }
    x.request_id = x.p == provider::anthropic ? anthropic_request_id() : openai_request_id();
    if(req.method() != bhttp::verb::post)
        co_return result(x.error({405, "invalid_request_error",
            "Method " + std::string(req.method_string()) + " not allowed; use POST", {}, {}}));

    if(auto failure = check_key(st.options.api_key, req, x.p))
        co_return result(x.error(*failure));

    std::string_view version;
    if(x.p == provider::anthropic)
    {
        auto const it = req.find("anthropic-version");
        if(it == req.end())
            co_return result(x.error(anthropic_invalid("anthropic-version: header is required")));
        version = it->value();
        if(version != "2023-06-01" && version != "2026-10-21")
            co_return result(x.error(anthropic_invalid("anthropic-version: unknown version '" +
                std::string(version) + "' (this fake accepts 2023-06-01 and 2026-10-21)")));
    }

    if(parse_ec || !body.is_object())
    {
        std::string const why = parse_ec ? "the body is not valid JSON: " + parse_ec.message()
                                          : std::string("the body must be a JSON object");
        co_return result(x.error(x.p == provider::anthropic ? anthropic_invalid(why) : openai_invalid(why)));
    }
    conversation c;
    auto const failure = x.p == provider::anthropic ? read_anthropic(body.get_object(), version, c)
                                                    : read_openai(body.get_object(), c);
    if(failure)
        co_return result(x.error(*failure));
    std::size_t const request_bytes = req.body().size();
    body = nullptr; // the stream may last long: keep only what it needs
    req.body() = std::string();

    auto const sc = st.find(c.model);
    if(!sc)
    {
        if(x.p == provider::anthropic)
            co_return result(x.error({404, "not_found_error", "model: " + c.model, {}, {}}));
        co_return result(x.error({404, "invalid_request_error",
            "The model `" + c.model + "` does not exist or you do not have access to it.", {}, "model_not_found"}));
    }

    std::size_t const round = std::min(c.round, sc->turns.size() - 1);
    auto const& alternatives = sc->turns[round];
    auto const chosen = std::find_if(alternatives.begin(), alternatives.end(), [&](scripted_response const& r) {
        return c.last_tool_result.find(r.when_last_tool_result_contains) != std::string::npos;
    });
    if(chosen == alternatives.end())
        co_return result(x.error(x.p == provider::anthropic
                ? anthropic_invalid("fake_llm: no alternative of turn " + std::to_string(round) + " of scenario '" +
                      sc->name + "' matches the last tool result")
                : openai_invalid("fake_llm: no alternative of turn " + std::to_string(round) + " of scenario '" +
                      sc->name + "' matches the last tool result")));
    scripted_response const& r = *chosen;

    std::size_t attempt = 0;
    bool const counted = std::any_of(r.faults.begin(), r.faults.end(), [](fault const& f) { return f.times != 0; });
    if(counted)
    {
        std::string key = x.p == provider::anthropic ? "anthropic\n" : "openai\n";
        key.append(sc->name).append("\n").append(std::to_string(round)).append("\n");
        key.append(std::to_string(c.messages_hash));
        attempt = st.next_attempt(std::move(key));
    }
    auto const faults = select_faults(r, attempt);

    if(faults.http_error)
    {
        fault const& f = *faults.http_error;
        auto res = x.error_for_status(f.status, f.error_type, f.error_message);
        if(!f.retry_after.empty())
            res.set(bhttp::field::retry_after, f.retry_after);
        if(!f.retry_after_ms.empty())
            res.set("retry-after-ms", f.retry_after_ms);
        if(!f.x_should_retry.empty())
            res.set("x-should-retry", f.x_should_retry);
        co_return result(std::move(res));
    }

    response_plan plan = make_plan(r, *sc, c, x.p, st.options, request_bytes);
    if(faults.slow)
        plan.interval = faults.slow->duration;
    auto const write_timeout = st.options.server.write_timeout;

    if(!c.stream)
    {
        if(faults.ending && faults.ending->kind == fault_kind::midstream_error)
        {
            // Without a stream the same failure is an HTTP error.
            fault const& f = *faults.ending;
            std::string_view const type = !f.error_type.empty() ? std::string_view(f.error_type)
                : x.p == provider::anthropic                    ? std::string_view("overloaded_error")
                                                                : std::string_view("server_error");
            unsigned const status = type == "overloaded_error" ? 529 : 500;
            co_return result(x.error_for_status(status, type, f.error_message));
        }
        auto res = x.json_response(bhttp::status::ok,
            x.p == provider::anthropic ? anthropic_message_body(plan) : openai_completion_body(plan));
        if(!faults.ending)
            co_return result(std::move(res));
        event_stream es(stream, x.p, write_timeout);
        auto group = beside_watch(es, answer_with_fault(es, stream, res, *faults.ending, write_timeout));
        auto [order, e1, e2] = co_await group.async_wait(asio::experimental::wait_for_one(), asio::use_awaitable);
        report_failures(e1, e2);
        co_return std::nullopt;
    }

    bhttp::response<bhttp::empty_body> header{bhttp::status::ok, x.version};
    header.set(bhttp::field::content_type, "text/event-stream");
    header.set(bhttp::field::cache_control, "no-cache");
    x.set_common(header);

    event_stream es(stream, x.p, write_timeout);
    es.set_interval(plan.interval);
    es.set_ending_fault(faults.ending);
    auto group = beside_watch(es, stream_response(es, header, plan, x.p, c.include_usage));
    auto [order, e1, e2] = co_await group.async_wait(asio::experimental::wait_for_one(), asio::use_awaitable);
    report_failures(e1, e2);
    co_return std::nullopt;
}

} // detail

// ================================================================================
// fake_llm
// ================================================================================

inline fake_llm::fake_llm(asio::any_io_executor ex, fake_llm_options options)
    : state_(std::make_shared<detail::fake_llm_state>(options))
    , server_(std::move(ex), detail::fake_llm_handler{state_}, options.server)
{
}

inline void fake_llm::add_scenario(scenario s)
{
    auto p = std::make_shared<scenario const>(std::move(s));
    std::lock_guard lock(state_->mutex);
    state_->scenarios[p->name] = std::move(p);
}

inline std::size_t fake_llm::load_scenarios(std::filesystem::path const& path)
{
    auto list = read_scenarios(path);
    for(auto& s : list)
        add_scenario(std::move(s));
    return list.size();
}

inline std::vector<std::string> fake_llm::scenario_names() const
{
    std::lock_guard lock(state_->mutex);
    std::vector<std::string> names;
    for(auto const& kv : state_->scenarios)
        names.push_back(kv.first);
    return names;
}

inline system::result<tcp::endpoint> fake_llm::start(tcp::endpoint const& endpoint)
{
    auto bound = server_.listen(endpoint);
    if(!bound)
        return bound;
    {
        std::lock_guard lock(state_->mutex);
        state_->endpoint = *bound;
    }
    server_.start();
    return bound;
}

inline tcp::endpoint fake_llm::endpoint() const
{
    std::lock_guard lock(state_->mutex);
    return state_->endpoint;
}

inline void fake_llm::stop()
{
    server_.stop();
}

inline std::string fake_llm::anthropic_base_url() const
{
    auto const ep = endpoint();
    auto address = ep.address();
    if(address.is_unspecified())
        address = address.is_v6() ? asio::ip::address(asio::ip::address_v6::loopback())
                                  : asio::ip::address(asio::ip::address_v4::loopback());
    std::string host = address.to_string();
    if(address.is_v6())
        host = "[" + host + "]";
    return "http://" + host + ":" + std::to_string(ep.port());
}

inline std::string fake_llm::openai_base_url() const
{
    return anthropic_base_url() + "/v1";
}

inline std::size_t fake_llm::connection_count() const noexcept
{
    return server_.connection_count();
}

inline std::vector<recorded_request> fake_llm::requests() const
{
    std::lock_guard lock(state_->mutex);
    return {state_->recorded.begin(), state_->recorded.end()};
}

inline void fake_llm::reset()
{
    std::lock_guard lock(state_->mutex);
    state_->recorded.clear();
    state_->attempts.clear();
}

} // agentio::testing

#endif
