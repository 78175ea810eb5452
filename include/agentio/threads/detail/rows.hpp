//
// agentio/threads/detail/rows.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The row decoders both thread stores share: a thread, a run and a thread
// item from the columns each backend selects in the same order, with the
// same checks and the same words for data this library did not write. A
// backend passes its row through a view with `text(column)` and
// `int64(column)`.
//

#ifndef AGENTIO_THREADS_DETAIL_ROWS_HPP
#define AGENTIO_THREADS_DETAIL_ROWS_HPP

#include <agentio/llm/message_json.hpp>
#include <agentio/threads.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::threads::detail {

inline error corrupt(std::string message)
{
    return {make_error_code(errc::corrupt_data), std::move(message)};
}

inline timestamp from_millis(std::int64_t ms) noexcept
{
    return timestamp(std::chrono::milliseconds(ms));
}

/// Columns: through_seq, text, created_at.
template<class Row>
thread_summary decode_summary(Row const& row)
{
    return {row.int64(0), std::string(row.text(1)), from_millis(row.int64(2))};
}

/// Columns: id, owner, filename, purpose, media_type, bytes, metadata, created_at.
template<class Row>
result<file_record> decode_file(Row const& row)
{
    file_record f;
    f.id = row.text(0);
    f.owner = row.text(1);
    f.filename = row.text(2);
    f.purpose = row.text(3);
    f.media_type = row.text(4);
    f.bytes = static_cast<std::uint64_t>(row.int64(5));
    system::error_code ec;
    auto metadata = json::parse(row.text(6), ec);
    if(ec || !metadata.is_object())
        return corrupt("file " + f.id + ": metadata is not a JSON object");
    f.metadata = std::move(metadata.get_object());
    f.created_at = from_millis(row.int64(7));
    return f;
}

/// Columns: id, owner, agent, title, metadata, created_at, updated_at.
template<class Row>
result<thread_info> decode_thread(Row const& row)
{
    thread_info t;
    t.id = row.text(0);
    t.owner = row.text(1);
    t.agent = row.text(2);
    t.title = row.text(3);
    system::error_code ec;
    auto metadata = json::parse(row.text(4), ec);
    if(ec || !metadata.is_object())
        return corrupt("thread " + t.id + ": metadata is not a JSON object");
    t.metadata = std::move(metadata.get_object());
    t.created_at = from_millis(row.int64(5));
    t.updated_at = from_millis(row.int64(6));
    return t;
}

/** Columns: id, thread_id, owner, status, rounds, last_event_id,
    lease_holder, lease_expires_at, state, created_at, updated_at. */
template<class Row>
result<run_info> decode_run(Row const& row)
{
    run_info run;
    run.id = row.text(0);
    run.thread_id = row.text(1);
    run.owner = row.text(2);
    auto status = parse_run_status(row.text(3));
    if(!status)
        return corrupt("run " + run.id + ": unknown status");
    run.status = *status;
    run.rounds = static_cast<unsigned>(row.int64(4));
    run.last_event_id = row.int64(5);
    run.lease_holder = row.text(6);
    run.lease_expires_at = from_millis(row.int64(7));
    system::error_code ec;
    run.state = json::parse(row.text(8), ec);
    if(ec)
        return corrupt("run " + run.id + ": state is not JSON");
    run.created_at = from_millis(row.int64(9));
    run.updated_at = from_millis(row.int64(10));
    return run;
}

/// Columns: seq, run_id, message, created_at.
template<class Row>
result<item> decode_item(Row const& row, std::string_view thread_id)
{
    system::error_code ec;
    auto const v = json::parse(row.text(2), ec);
    std::string why;
    auto m = ec ? std::nullopt : llm::message_from_json(v, &why);
    if(!m)
        return corrupt("thread " + std::string(thread_id) + ", message " + std::to_string(row.int64(0)) + ": " +
            (ec ? ec.message() : why));
    return item{row.int64(0), std::move(*m), std::string(row.text(1)), from_millis(row.int64(3))};
}

/// Columns: call_id, tool, input, round, attempts, finished (0/1), result.
template<class Row>
result<call_record> decode_call(Row const& row, std::string_view run_id)
{
    call_record c;
    c.call_id = row.text(0);
    c.tool = row.text(1);
    system::error_code ec;
    c.input = json::parse(row.text(2), ec);
    if(ec)
        return corrupt("run " + std::string(run_id) + ", call " + c.call_id + ": its input is not JSON");
    c.round = static_cast<unsigned>(row.int64(3));
    c.attempts = static_cast<unsigned>(row.int64(4));
    c.finished = row.int64(5) != 0;
    c.result = json::parse(row.text(6), ec);
    if(ec)
        return corrupt("run " + std::string(run_id) + ", call " + c.call_id + ": its result is not JSON");
    return c;
}

/// A queued run's messages, as kept until it starts: a JSON array.
inline std::string encode_messages(std::span<llm::message const> messages)
{
    json::array out;
    out.reserve(messages.size());
    for(auto const& m : messages)
        out.push_back(llm::to_json(m));
    return json::serialize(out);
}

/// The messages `encode_messages` wrote.
inline result<std::vector<llm::message>> decode_messages(std::string_view text, std::string_view run_id)
{
    system::error_code ec;
    auto const v = json::parse(text, ec);
    if(ec || !v.is_array())
        return corrupt("run " + std::string(run_id) + ": its queued messages are not a JSON array");
    std::vector<llm::message> out;
    for(auto const& e : v.get_array())
    {
        std::string why;
        auto m = llm::message_from_json(e, &why);
        if(!m)
            return corrupt("run " + std::string(run_id) + ", a queued message: " + why);
        out.push_back(std::move(*m));
    }
    return out;
}

} // namespace agentio::threads::detail

#endif
