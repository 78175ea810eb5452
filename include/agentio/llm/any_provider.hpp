//
// agentio/llm/any_provider.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A provider chosen at run time. An application configured by its
// environment (AGENT_PROVIDER=anthropic|openai) holds one `any_provider` and
// instantiates the orchestrator once, instead of once per wire format. The
// cost is one virtual call per model call and per stream read, next to a
// network round trip each.
//

#ifndef AGENTIO_LLM_ANY_PROVIDER_HPP
#define AGENTIO_LLM_ANY_PROVIDER_HPP

#include <agentio/llm/provider.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/system/result.hpp>

#include <chrono>
#include <concepts>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace agentio::llm {

/// The stream of an @ref any_provider: any provider's stream, behind one type.
class any_model_stream
{
public:
    any_model_stream() = default;

    /// Takes a provider's stream.
    // clang-format off
    template<class Stream>
        requires(!std::same_as<std::remove_cvref_t<Stream>, any_model_stream>) && requires(Stream& s, error& e) {
            { s.done() } -> std::convertible_to<bool>;
            { s.finish(e) } -> std::same_as<std::optional<response>>;
        }
    explicit any_model_stream(Stream stream) : impl_(std::make_unique<model<Stream>>(std::move(stream)))
    // clang-format on
    {
    }

    /// @copydoc model_stream::read
    asio::awaitable<std::optional<error>> read(std::vector<stream_event>& out) { return impl_->read(out); }

    /// Whether the body ended (or failed).
    bool done() const noexcept { return !impl_ || impl_->done(); }

    /// Whether any output (text, blocks) was decoded.
    bool produced_output() const noexcept { return impl_ && impl_->produced_output(); }

    /// The answer; an error when the stream ended before its end marker.
    std::optional<response> finish(error& failure) { return impl_->finish(failure); }

private:
    struct base
    {
        virtual ~base() = default;
        virtual asio::awaitable<std::optional<error>> read(std::vector<stream_event>& out) = 0;
        virtual bool done() const noexcept = 0;
        virtual bool produced_output() const noexcept = 0;
        virtual std::optional<response> finish(error& failure) = 0;
    };

    template<class Stream>
    struct model final : base
    {
        explicit model(Stream s) : stream(std::move(s)) {}
        asio::awaitable<std::optional<error>> read(std::vector<stream_event>& out) override { return stream.read(out); }
        bool done() const noexcept override { return stream.done(); }
        bool produced_output() const noexcept override { return stream.produced_output(); }
        std::optional<response> finish(error& failure) override { return stream.finish(failure); }

        Stream stream;
    };

    std::unique_ptr<base> impl_;
};

/** Any @ref provider, chosen at run time.

    @code
    agentio::llm::any_provider provider = settings.openai
        ? agentio::llm::any_provider(agentio::llm::openai_provider(http, options))
        : agentio::llm::any_provider(agentio::llm::anthropic_provider(http, options));
    agentio::agent::orchestrator agent{provider, tools, agent_options};
    @endcode

    Owns the provider it holds; move-only.
*/
class any_provider
{
public:
    using stream_type = any_model_stream;

    /// Takes a provider.
    // clang-format off
    template<provider Provider>
        requires(!std::same_as<std::remove_cvref_t<Provider>, any_provider>)
    explicit any_provider(Provider p) : impl_(std::make_unique<model<Provider>>(std::move(p)))
    // clang-format on
    {
    }

    any_provider(any_provider&&) noexcept = default;
    any_provider& operator=(any_provider&&) noexcept = default;

    /// @copydoc http_provider::open
    asio::awaitable<boost::system::result<stream_type, error>> open(request const& r) { return impl_->open(r); }

    /// @copydoc http_provider::backoff
    asio::awaitable<void> backoff(unsigned retries_done, std::optional<std::chrono::milliseconds> server_delay = {})
    {
        return impl_->backoff(retries_done, server_delay);
    }

    /** The held provider's count of a request's input tokens
        (@ref token_counter); `error::kind::configuration` when it cannot count. */
    asio::awaitable<boost::system::result<std::uint64_t, error>> count_tokens(request const& r)
    {
        return impl_->count_tokens(r);
    }

    /// The held provider's name (`gen_ai.provider.name`), when it has one; else empty.
    std::string_view name() const noexcept { return impl_->name(); }

    /// The provider held, if it is a `Provider`; for its own settings.
    template<class Provider>
    Provider* target() noexcept
    {
        auto* m = dynamic_cast<model<Provider>*>(impl_.get());
        return m ? &m->held : nullptr;
    }

private:
    struct base
    {
        virtual ~base() = default;
        virtual asio::awaitable<boost::system::result<stream_type, error>> open(request const& r) = 0;
        virtual asio::awaitable<void> backoff(unsigned retries_done,
            std::optional<std::chrono::milliseconds> server_delay) = 0;
        virtual asio::awaitable<boost::system::result<std::uint64_t, error>> count_tokens(request const& r) = 0;
        virtual std::string_view name() const noexcept = 0;
    };

    template<class Provider>
    struct model final : base
    {
        explicit model(Provider p) : held(std::move(p)) {}

        asio::awaitable<boost::system::result<stream_type, error>> open(request const& r) override
        {
            using result_type = boost::system::result<stream_type, error>;
            auto opened = co_await held.open(r);
            if(!opened)
                co_return result_type(boost::system::in_place_error, std::move(opened).error());
            co_return result_type(boost::system::in_place_value, stream_type(std::move(*opened)));
        }

        asio::awaitable<void> backoff(unsigned retries_done,
            std::optional<std::chrono::milliseconds> server_delay) override
        {
            return held.backoff(retries_done, server_delay);
        }

        asio::awaitable<boost::system::result<std::uint64_t, error>> count_tokens(request const& r) override
        {
            if constexpr(token_counter<Provider>)
                return held.count_tokens(r);
            else
                return cannot_count();
        }

        std::string_view name() const noexcept override
        {
            if constexpr(requires { std::string_view(held.name()); })
                return held.name();
            else
                return {};
        }

        static asio::awaitable<boost::system::result<std::uint64_t, error>> cannot_count()
        {
            co_return error{error::kind::configuration, 0, {}, "this provider does not count tokens", false, {}, {}};
        }

        Provider held;
    };

    std::unique_ptr<base> impl_;
};

static_assert(provider<any_provider>);

} // namespace agentio::llm

#endif
