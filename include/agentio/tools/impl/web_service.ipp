//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_TOOLS_IMPL_WEB_SERVICE_IPP
#define AGENTIO_TOOLS_IMPL_WEB_SERVICE_IPP

#include <agentio/text.hpp>
#include <agentio/tools/web_service.hpp>

#include <boost/asio/experimental/concurrent_channel.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/status.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <map>
#include <mutex>
#include <random>

namespace agentio::tools {

struct web_service::state
{
    state(http::client& c, std::string n, service_options o)
        : client(c)
        , name(std::move(n))
        , options(std::move(o))
        , slots(c.get_executor(), std::max<std::size_t>(1, options.max_concurrent))
    {
    }

    struct entry
    {
        std::chrono::steady_clock::time_point expires;
        http::client_response response;
    };

    http::client& client;
    std::string name;
    service_options options;
    /// A semaphore: a message is a request in flight; the buffer holds `max_concurrent`.
    boost::asio::experimental::concurrent_channel<void(boost::system::error_code)> slots;
    std::mutex mutex;
    std::map<std::string, entry, std::less<>> cache;
    std::atomic<std::uint64_t> requests{0}, retries{0}, hits{0}, misses{0};
};

namespace detail {

inline std::string cache_key(http::client_request const& r)
{
    std::string key(boost::beast::http::to_string(r.method));
    key += ' ';
    key += r.url;
    key += '\n';
    key += r.body;
    return key;
}

// Gives the slot back on every way out of an attempt.
struct service_slot
{
    boost::asio::experimental::concurrent_channel<void(boost::system::error_code)>* slots;
    ~service_slot()
    {
        slots->try_receive([](boost::system::error_code) {});
    }
};

inline std::chrono::milliseconds backoff(service_options const& o, unsigned attempt)
{
    auto delay = o.initial_delay;
    for(unsigned i = 1; i < attempt && delay < o.max_delay; ++i)
        delay *= 2;
    delay = std::min(delay, o.max_delay);
    thread_local std::minstd_rand random{std::random_device{}()};
    std::uniform_real_distribution<double> off(0.0, 0.25);
    return std::chrono::milliseconds(static_cast<std::int64_t>(static_cast<double>(delay.count()) * (1 - off(random))));
}

} // namespace detail

AGENTIO_DECL web_service::web_service(http::client& client, std::string name, service_options options)
    : state_(std::make_shared<state>(client, std::move(name), std::move(options)))
{
}

AGENTIO_DECL boost::asio::awaitable<boost::system::result<fetched, std::string>>
web_service::fetch(http::client_request request)
{
    namespace asio = boost::asio;
    std::shared_ptr<state> const s = state_;
    auto const& o = s->options;
    if(request.headers.find(boost::beast::http::field::user_agent) == request.headers.end() && !o.user_agent.empty())
        request.headers.set(boost::beast::http::field::user_agent, o.user_agent);
    if(!request.total_timeout)
        request.total_timeout = std::chrono::duration_cast<std::chrono::steady_clock::duration>(o.timeout);
    auto const key = detail::cache_key(request);
    if(!traceparent_.empty() && request.headers.find("traceparent") == request.headers.end())
        request.headers.set("traceparent", traceparent_);
    if(o.cache_ttl.count() > 0)
    {
        std::lock_guard lock(s->mutex);
        if(auto it = s->cache.find(key); it != s->cache.end())
        {
            if(it->second.expires > std::chrono::steady_clock::now())
            {
                ++s->hits;
                fetched out;
                out.response = it->second.response;
                out.cached = true;
                co_return out;
            }
            s->cache.erase(it);
        }
        ++s->misses;
    }

    asio::steady_timer wait(co_await asio::this_coro::executor);
    std::string last_error;
    for(unsigned attempt = 1;; ++attempt)
    {
        boost::system::error_code const taken;
        co_await s->slots.async_send(taken, asio::use_awaitable);
        detail::service_slot const slot{&s->slots};
        ++s->requests;
        if(attempt > 1)
            ++s->retries;
        http::client_request copy = request;
        auto [err, res] = co_await s->client.async_request(std::move(copy), asio::use_awaitable);
        bool retry = false;
        std::optional<std::chrono::milliseconds> asked;
        if(err)
        {
            last_error = s->name + " could not be reached: " + err.message;
            retry = err.retryable();
        }
        else
        {
            retry = res.status == 429 || res.status >= 500;
            if(auto after = res.retry_after())
                asked = std::chrono::duration_cast<std::chrono::milliseconds>(*after);
            bool const too_long = asked && *asked > o.max_retry_after;
            if(!retry || attempt > o.max_retries || too_long)
            {
                fetched out;
                out.response = std::move(res);
                out.attempts = attempt;
                co_return out;
            }
        }
        if(!retry || attempt > o.max_retries)
        {
            if(attempt > 1)
                last_error += " (" + std::to_string(attempt) + " attempts)";
            co_return last_error;
        }
        auto const delay = asked ? *asked : detail::backoff(o, attempt);
        wait.expires_after(delay);
        co_await wait.async_wait(asio::use_awaitable);
    }
}

AGENTIO_DECL void web_service::remember(http::client_request const& request, http::client_response const& response,
    std::optional<std::chrono::seconds> ttl)
{
    auto const& o = state_->options;
    auto const keep = ttl.value_or(o.cache_ttl);
    if(keep.count() <= 0 || o.cache_entries == 0)
        return;
    http::client_request keyed = request;
    if(keyed.headers.find(boost::beast::http::field::user_agent) == keyed.headers.end())
        keyed.headers.set(boost::beast::http::field::user_agent, o.user_agent);
    auto const now = std::chrono::steady_clock::now();
    std::lock_guard lock(state_->mutex);
    auto& cache = state_->cache;
    while(cache.size() >= o.cache_entries)
    {
        auto soonest = std::min_element(cache.begin(), cache.end(),
            [](auto const& a, auto const& b) { return a.second.expires < b.second.expires; });
        cache.erase(soonest);
    }
    cache.insert_or_assign(detail::cache_key(keyed), state::entry{now + keep, response});
}

AGENTIO_DECL std::string const& web_service::name() const noexcept
{
    return state_->name;
}

AGENTIO_DECL service_options const& web_service::options() const noexcept
{
    return state_->options;
}

AGENTIO_DECL service_stats web_service::stats() const
{
    service_stats out;
    out.requests = state_->requests.load();
    out.retries = state_->retries.load();
    out.cache_hits = state_->hits.load();
    out.cache_misses = state_->misses.load();
    return out;
}

AGENTIO_DECL std::string url_encode(std::string_view text)
{
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size() * 3);
    for(unsigned char c : text)
    {
        if(std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~')
            out.push_back(static_cast<char>(c));
        else
        {
            out.push_back('%');
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 15]);
        }
    }
    return out;
}

AGENTIO_DECL std::string describe_failure(std::string_view service, http::client_response const& response)
{
    std::string text;
    auto const type = response.header("content-type");
    bool const html = type.find("html") != std::string_view::npos || response.body.find("<html") != std::string::npos ||
        response.body.find("<!DOCTYPE") != std::string::npos;
    if(html)
    {
        // Only the words: tags and what scripts and styles hold are dropped.
        bool in_tag = false;
        std::string_view body = response.body;
        for(std::size_t i = 0; i < body.size(); ++i)
        {
            if(!in_tag && body[i] == '<')
            {
                for(std::string_view skip : {"<script", "<style"})
                    if(body.substr(i, skip.size()) == skip)
                    {
                        auto const end = body.find(std::string("</") + std::string(skip.substr(1)), i);
                        i = end == std::string_view::npos ? body.size() : end;
                        break;
                    }
                in_tag = true;
            }
            else if(in_tag && body[i] == '>')
            {
                in_tag = false;
                text.push_back(' ');
            }
            else if(!in_tag)
                text.push_back(body[i]);
        }
    }
    else
        text = response.body;
    // One line, spaces collapsed, a bounded start.
    std::string line;
    for(char c : text)
    {
        bool const space = std::isspace(static_cast<unsigned char>(c)) != 0;
        if(space && (line.empty() || line.back() == ' '))
            continue;
        line.push_back(space ? ' ' : c);
    }
    while(!line.empty() && line.back() == ' ')
        line.pop_back();
    std::string out = std::string(service) + " answered HTTP " + std::to_string(response.status);
    auto const reason = boost::beast::http::obsolete_reason(static_cast<boost::beast::http::status>(response.status));
    if(!reason.empty() && reason != "<unknown-status>")
        out += " (" + std::string(reason) + ")";
    if(!line.empty())
    {
        std::string cut;
        agentio::append_valid_utf8(cut, std::string_view(line).substr(0, 300));
        out += ": " + cut + (line.size() > 300 ? "…" : "");
    }
    return out;
}

} // namespace agentio::tools

#endif
