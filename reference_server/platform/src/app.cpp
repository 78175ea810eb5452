// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "app.hpp"

#include "prompts.hpp"
#include "routing.hpp"

#include <agentio/environment.hpp>
#include <agentio/http/json_response.hpp>
#include <agentio/http/request_log.hpp>
#include <agentio/retrieval/observed_index.hpp>
#include <agentio/retrieval/open_index_writer.hpp>
#include <agentio/json_text.hpp>
#include <agentio/version.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/concurrent_channel.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace platform {

namespace asio = boost::asio;
namespace json = boost::json;
namespace bhttp = boost::beast::http;
namespace cc = agentio::chat_completions;
namespace llm = agentio::llm;

// The index rag_retrieval searches, opened as it says it must be searched.
struct application::retrieval_state
{
    std::unique_ptr<agentio::retrieval::index> index; // the sqlite_index, observed
    std::optional<agentio::retrieval::opened_searcher> opened;
};

// The users' uploaded documents: one index (SQLite or PostgreSQL), a
// collection per user ("uploads/<user>"). Writes are one at a time (an
// index writer's calls must not overlap); the searcher holds the vectors in
// memory, so it is made again after a write.
struct application::documents_state final : user_documents
{
    documents_state(asio::any_io_executor ex, agentio::trace::tracer& spans) : turn(std::move(ex), 1), tracer(&spans) {}

    std::unique_ptr<agentio::retrieval::index_writer> writer;
    std::unique_ptr<agentio::retrieval::index> index;
    std::optional<agentio::retrieval::opened_searcher> opened;
    std::uint64_t generation = 1;
    std::uint64_t opened_generation = 0;
    // A lock: a message is the turn taken.
    asio::experimental::concurrent_channel<void(boost::system::error_code)> turn;
    agentio::trace::tracer* tracer;

    asio::awaitable<void> acquire()
    {
        boost::system::error_code const taken;
        co_await turn.async_send(taken, asio::use_awaitable);
    }

    void release()
    {
        turn.try_receive([](boost::system::error_code) {});
    }

    struct held
    {
        documents_state* state;
        ~held() { state->release(); }
    };

    asio::awaitable<boost::system::result<agentio::retrieval::search_result, std::string>> search(std::string owner,
        agentio::retrieval::search_request request) override
    {
        co_await acquire();
        held const hold{this};
        if(opened_generation != generation)
        {
            opened.reset();
            agentio::retrieval::open_searcher_options o;
            o.search.tracer = tracer;
            o.search.data_source = "uploads";
            auto searcher = co_await agentio::retrieval::open_searcher(*index, std::move(o));
            if(!searcher)
                co_return searcher.error().message;
            opened = std::move(*searcher);
            opened_generation = generation;
        }
        request.collections = {"uploads/" + owner};
        auto found = co_await opened->searcher->search(request);
        if(!found)
            co_return found.error().message;
        co_return std::move(*found);
    }
};

namespace {

bhttp::message_generator json_response(bhttp::status status, json::value const& body, unsigned version)
{
    return agentio::http::json_response(status, body, version);
}

} // namespace

namespace {

using authenticator = std::function<boost::system::result<std::string, cc::api_error>(agentio::http::request const&)>;

// The user a request's JWT names; empty when the platform does not authenticate.
authenticator make_authenticator(settings const& config, std::optional<agentio::http::jwt::verifier> const& jwt)
{
    if(!config.authenticates())
        return {};
    return [&jwt](agentio::http::request const& req) -> boost::system::result<std::string, cc::api_error> {
        auto const header = req.find(bhttp::field::authorization);
        auto const token = header == req.end() ? std::nullopt : agentio::http::jwt::bearer_token(header->value());
        if(!token)
            return cc::api_error{401, "Missing bearer token: send Authorization: Bearer <JWT>.", "authentication_error",
                {}, "missing_token"};
        auto claims = jwt->verify(*token);
        if(!claims)
            return cc::api_error{401, "Invalid token: " + claims.error().message + ".", "authentication_error", {},
                "invalid_token"};
        return std::move(claims->subject);
    };
}

cc::endpoint_options api_options(settings const& config, std::optional<agentio::http::jwt::verifier> const& jwt,
    agentio::threads::thread_store* store, agentio::log::logger& log, cc::completion_metrics& completions)
{
    cc::endpoint_options o;
    o.authenticate = make_authenticator(config, jwt);
    o.sessions.store = store;
    o.sessions.memory = config.memory;
    o.sessions.max_messages = config.memory_messages;
    o.sessions.when_busy = config.busy_policy; // AGENT_BUSY_POLICY; a request may send its own "busy_policy"
    o.sessions.start_unnamed = true;           // a request without a session starts one (X-Session-Id)
    o.sessions.routes = true;                  // GET /v1/sessions, GET and DELETE /v1/sessions/{id}
    o.on_complete = [&log, &completions](cc::completion_record const& r) {
        completions.record(r);
        agentio::log::context const about{.request_id = {},
            .user = r.user,
            .session = r.session,
            .thread = {},
            .run = {}};
        auto const l = r.outcome == "error" ? agentio::log::level::warn : agentio::log::level::info;
        log.write(l, "chat.completion", about,
            {{"model", r.model}, {"stream", r.stream}, {"outcome", r.outcome}, {"input_tokens", r.usage.input_tokens},
                {"output_tokens", r.usage.output_tokens},
                {"duration_ms", static_cast<double>(r.duration.count()) / 1000.0}, {"error", r.error}});
    };
    return o;
}

std::optional<agentio::http::jwt::verifier> make_verifier(settings const& config)
{
    if(!config.authenticates())
        return std::nullopt;
    agentio::http::jwt::verify_options o;
    if(!config.jwt_issuer.empty())
        o.issuer = config.jwt_issuer;
    if(!config.jwt_audience.empty())
        o.audience = config.jwt_audience;
    auto v = config.jwt_secret.empty() ? agentio::http::jwt::verifier::from_public_key_pem(config.jwt_public_key, o)
                                       : agentio::http::jwt::verifier::hs256(config.jwt_secret, o);
    if(!v)
        throw std::invalid_argument(std::string(config.jwt_secret.empty() ? "PLATFORM_JWT_PUBLIC_KEY"
                                                                          : "PLATFORM_JWT_SECRET") +
            ": " + v.error().message);
    return std::move(*v);
}

} // namespace

application::application(settings config, agentio::http::client& http, llm::any_provider& provider,
    agentio::threads::thread_store* store, agentio::app::telemetry& seen)
    : config_(std::move(config))
    , seen_(seen)
    , log_(seen.log())
    , completions_(seen.registry())
    , http_(http)
    , provider_(provider)
    , retrieval_(std::make_unique<retrieval_state>())
    , documents_(std::make_unique<documents_state>(http.get_executor(), seen.tracer()))
    , api_(api_options(config_, jwt_, store, log_, completions_))
    , jwt_(make_verifier(config_))
    , rules_(routing_rules())
    , probe_timer_(http.get_executor())
    , provider_status_{{"reachable", nullptr}, {"error", "not checked yet"}}
{
    if(!config_.authenticates())
        warnings_.push_back("WARNING: no PLATFORM_JWT_SECRET or PLATFORM_JWT_PUBLIC_KEY: every request is served "
                            "without authentication, all as one anonymous user. For local use only.");
    resources_.sql_max_rows = config_.sql_max_rows;
    // The sandbox python_code and symbolic math_calc run in: never anything unsandboxed.
    resources_.code_limits.wall_time = std::chrono::seconds(config_.sandbox_seconds);
    resources_.code_limits.cpu_time = std::chrono::seconds(config_.sandbox_seconds);
    resources_.code_limits.memory_bytes = std::uint64_t(config_.sandbox_memory_mb) << 20;
    if(config_.sandbox)
    {
        agentio::sandbox::options o;
        o.max_running = config_.sandbox_max_running;
        try
        {
            sandbox_ = std::make_unique<agentio::sandbox::runner>(http.get_executor(), o);
            sandbox_->add_metrics(seen_.registry());
            resources_.sandbox = sandbox_.get();
        }
        catch(agentio::sandbox::unavailable const& e)
        {
            resources_.sandbox_missing = e.what();
            warnings_.push_back(std::string("python_code, math_calc (symbolic): ") + e.what());
        }
    }
    // Uploads: their records beside the sessions, their bytes in PLATFORM_UPLOADS.
    if(store)
    {
        cc::files_options o;
        o.folder = config_.uploads;
        o.max_file_bytes = config_.max_upload_bytes;
        o.authenticate = make_authenticator(config_, jwt_);
        o.on_stored = [this](cc::stored_file const& file) { return index_upload(file); };
        o.on_deleted = [this](agentio::threads::file_record const& file) { return unindex_upload(file); };
        files_ = std::make_unique<cc::files_api>(*store, std::move(o));
        resources_.files = files_.get();
    }

    // asistente: one agent, three strategies (the tool loop, ReAct, plan-and-execute).
    cc::strategy_model_options asistente;
    asistente.card.id = "asistente";
    asistente.card.created = 1764115200; // 2025-11-26, when the platform's models were first listed
    asistente.card.extra["description"] =
        "The platform's general agent: mathematics (numbers, algebra, calculus), Python in a sandbox, data analysis "
        "of uploaded files, SQL, document search, web search, Wikipedia, the weather; strategies tools, react, "
        "plan_execute";
    asistente.tools.model = config_.model.effective_model();
    asistente.tools.system = asistente_prompt();
    asistente.tools.limits.max_rounds = config_.max_rounds;
    asistente.tools.limits.last_round_answers = true;
    // A session longer than the model's window keeps answering: within the memory window (the latest 40
    // messages), the oldest turns of a request that would not fit are summarized or left out (AGENT_CONTEXT_POLICY).
    asistente.tools.context = {.window = config_.model.window(asistente.tools.model, asistente.tools.max_tokens).tokens,
        .policy = config_.model.context_policy,
        .count_tokens = config_.model.count_tokens,
        .estimator = std::make_shared<llm::token_estimator>()};
    asistente.react.model = asistente.tools.model;
    asistente.react.system = asistente_prompt();
    asistente.react.max_iterations = config_.max_iterations;
    asistente.react.context = asistente.tools.context; // the same window and estimate for ReAct
    asistente.plan.model = asistente.tools.model;
    asistente.plan.system = asistente_prompt();
    asistente.chat.system = chat_prompt(); // the rest of plain chat's options are the tool loop's
    // Each run's spans, metrics and log lines (agent.run, tool.call) under the model's name.
    asistente.tools.telemetry = seen_.agent("asistente");
    asistente.chat.telemetry = asistente.tools.telemetry;
    asistente.react.telemetry = asistente.tools.telemetry;
    asistente.plan.telemetry = asistente.tools.telemetry;
    asistente.choose = [this](cc::request const& r) { return choose_strategy(r); };
    asistente.log = [this](cc::call_context const& ctx, std::string_view line) {
        agentio::log::context const about{.request_id = {},
            .user = ctx.user,
            .session = ctx.session,
            .thread = {},
            .run = {}};
        log_.write(agentio::log::level::info, "agent.step", about, {{"step", line}});
    };
    // The asistente's tools: the platform's own and, by name, the remote agents (held here, seen by the model).
    asistente_tools_ = std::make_unique<agentio::combined_toolset<asistente_tools>>(make_tools(resources_, http,
        config_.web));
    auto& tools = *asistente_tools_;
    // PLATFORM_A2A_AGENTS: each remote agent a tool of the asistente and a model of its own.
    for(auto const& [name, url] : config_.a2a_agents)
    {
        agentio::a2a::client_options o;
        o.url = url;
        if(!config_.a2a_token.empty())
            o.headers.set(boost::beast::http::field::authorization, "Bearer " + config_.a2a_token);
        agentio::a2a::client remote(http_, std::move(o));
        auto added = tools.add(agentio::a2a::agent_tool(remote, name,
            "The remote agent '" + name + "' (A2A, " + url +
                "): send it a message in words and it answers in words; pass the contextId it returned to go on "
                "with the same conversation."));
        if(!added)
            throw std::runtime_error("PLATFORM_A2A_AGENTS: " + added.error());
        agentio::a2a::remote_model_options m;
        m.card.id = name;
        m.card.created = 1764115200;
        m.card.extra["a2a"] = url;
        m.transcript_heading = "Conversación hasta ahora:";
        m.card.extra["description"] = "The remote A2A agent at " + url;
        remote_agents_.emplace_back(name, remote);
        api_.add(std::make_shared<agentio::a2a::remote_model>(std::move(remote), std::move(m)));
    }
    skills_ = agentio::a2a::skills_of(tools.descriptors());
    // PLATFORM_APPROVAL_TOOLS: names the asistente knows, or the server does not start.
    for(auto const& name : config_.approval_tools)
        if(!tools.contains(name))
            throw std::runtime_error("PLATFORM_APPROVAL_TOOLS: the asistente has no tool '" + name + "'");
    asistente.describe_approval = [](agentio::agent::approval_request const& call) {
        return call.in_doubt ? "La llamada a «" + call.tool + "» empezó y puede haberse hecho ya: ¿la repito?"
                             : "¿Apruebas la llamada a «" + call.tool + "»?";
    };
    if(!config_.approval_tools.empty())
        asistente.tools.requires_approval = [names = config_.approval_tools](std::string_view tool) {
            return std::find(names.begin(), names.end(), tool) != names.end();
        };
    api_.add(std::make_shared<cc::strategy_model<llm::any_provider, agentio::tool_catalog_ref>>(provider_,
        agentio::tool_catalog_ref(tools), std::move(asistente)));

    // The siblings: their own APIs, as they are configured and run.
    for(auto const& [name, url] : config_.upstreams)
    {
        llm::provider_options o;
        o.base_url = url;
        o.api_key = "none"; // the sibling authenticates with its own keys, if any
        o.on_retry = seen_.provider_retries("openai");
        upstream_providers_.push_back(std::make_unique<llm::openai_provider>(http_, std::move(o)));
        cc::agent_model_options m;
        m.card.id = name;
        m.card.created = 1764115200;
        m.card.extra["upstream"] = url;
        m.agent.model = name;
        m.agent.telemetry = seen_.agent(name); // its chat span's context reaches the sibling: one trace
        m.accept_client_system = true;
        api_.add(std::make_shared<cc::agent_model<llm::openai_provider, agentio::dynamic_tools>>(
            *upstream_providers_.back(), agentio::dynamic_tools{}, std::move(m)));
    }
}

application::~application() = default;

asio::awaitable<agentio::agent::strategy> application::choose_strategy(cc::request const& r)
{
    std::string const question = r.messages.empty() ? std::string() : r.messages.back().text();
    // Plain chat is the cheap path: the words decide it without a classification call.
    auto const by_words = agentio::agent::choose_by_keywords(question, rules_);
    if(by_words == agentio::agent::strategy::chat)
        co_return by_words;
    if(config_.route_by_model)
    {
        agentio::agent::classifier_options o;
        o.model = config_.router_model.empty() ? config_.model.effective_model() : config_.router_model;
        auto chosen = co_await agentio::agent::classify(provider_, question, o);
        if(chosen)
            co_return *chosen;
    }
    co_return by_words;
}

asio::awaitable<void> application::start()
{
    if(!config_.sql_db.empty())
    {
        auto const ex = co_await asio::this_coro::executor;
        agentio::mcp::process_options p;
        p.program = config_.sqlite_mcp.empty() ? agentio::companion_program("agentio-sqlite-mcp", {"../sqlite_mcp"})
                                               : config_.sqlite_mcp;
        p.arguments = {"--db", std::filesystem::absolute(config_.sql_db).string()};
        agentio::mcp::client_options o;
        o.name = "agentio-platform";
        agentio::mcp::client c(agentio::mcp::make_stdio_transport(ex, std::move(p)), std::move(o));
        std::string why;
        try
        {
            co_await c.connect();
        }
        catch(agentio::mcp::client_error const& e)
        {
            why = e.what();
        }
        if(why.empty())
            resources_.sql = c;
        else
            warnings_.push_back("sql_query: cannot start the SQLite MCP server: " + why);
    }
    if(!config_.rag_index.empty())
    {
        auto index = agentio::retrieval::sqlite_index::open(config_.rag_index);
        if(!index)
            warnings_.push_back("rag_retrieval: cannot open the index '" + config_.rag_index +
                "': " + index.error().message);
        else
        {
            // Each read timed and counted (agentio_index_*{index="rag"}), open_searcher's included.
            retrieval_->index = std::make_unique<agentio::retrieval::observed_index>(std::move(*index),
                seen_.registry(), "rag");
            agentio::retrieval::open_searcher_options o;
            o.search.tracer = &seen_.tracer(); // each search a `retrieval rag` span
            o.search.data_source = "rag";
            auto opened = co_await agentio::retrieval::open_searcher(*retrieval_->index, std::move(o));
            if(!opened)
                warnings_.push_back("rag_retrieval: cannot search the index '" + config_.rag_index +
                    "': " + opened.error().message);
            else
            {
                if(!opened->warning.empty())
                    warnings_.push_back("rag_retrieval: " + opened->warning);
                retrieval_->opened = std::move(*opened);
                resources_.search = retrieval_->opened->searcher.get();
            }
        }
    }
    co_await open_documents();
    // The remote A2A agents' cards, read once now: one that cannot be had is reported (its calls will say why).
    for(auto& [name, remote] : remote_agents_)
    {
        auto card = co_await remote.card();
        if(!card)
            warnings_.push_back("PLATFORM_A2A_AGENTS: " + name + ": " + card.error().message);
    }
}

namespace {

// The uploads' index analyses every language alike: folded words, no stems, no stop words.
agentio::retrieval::analysis_profile documents_profile()
{
    agentio::retrieval::analysis_profile p;
    p.min_length = 2;
    return p;
}

bool is_document(std::string_view media_type)
{
    for(std::string_view t :
        {"application/pdf", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "text/plain",
            "text/markdown", "application/json"})
        if(media_type == t)
            return true;
    return false;
}

} // namespace

asio::awaitable<void> application::open_documents()
{
    if(config_.documents_index == "off" || !files_)
        co_return;
    if(!sandbox_)
    {
        warnings_.push_back("rag_retrieval: uploaded documents are not indexed: " + resources_.sandbox_missing);
        co_return;
    }
    auto const profile = documents_profile();
    auto text = profile.make_analyzer();
    if(!text)
    {
        warnings_.push_back("rag_retrieval: " + text.error().message);
        co_return;
    }
    agentio::retrieval::open_index_writer_options o;
    auto writer = co_await agentio::retrieval::open_index_writer(config_.documents_index, std::move(*text),
        std::move(o));
    if(!writer)
    {
        warnings_.push_back("rag_retrieval: cannot open the documents index '" + config_.documents_index +
            "': " + writer.error().message);
        co_return;
    }
    if(auto stored = co_await (*writer)->store_analysis(profile); !stored)
    {
        warnings_.push_back("rag_retrieval: cannot write the documents index '" + config_.documents_index +
            "': " + stored.error().message);
        co_return;
    }
    agentio::postgres::pool_options pool;
    auto index = co_await agentio::retrieval::open_index(config_.documents_index, std::move(pool));
    if(!index)
    {
        warnings_.push_back("rag_retrieval: cannot read the documents index '" + config_.documents_index +
            "': " + index.error().message);
        co_return;
    }
    documents_->index = std::make_unique<agentio::retrieval::observed_index>(std::move(*index), seen_.registry(),
        "documents");
    documents_->writer = std::move(*writer);
    resources_.documents = documents_.get();
}

asio::awaitable<boost::system::result<json::object, std::string>> application::index_upload(cc::stored_file const& file)
{
    if(!is_document(file.record.media_type))
        co_return json::object{};
    if(!resources_.documents)
        co_return json::object{{"status", "processed"},
            {"status_details",
                "not indexed for rag_retrieval: " +
                    (sandbox_ ? std::string("no documents index") : resources_.sandbox_missing)}};
    std::string content = file.content, media_type = file.record.media_type, name = file.record.filename;
    agentio::retrieval::extraction_limits const limits;
    auto parts = co_await agentio::retrieval::extract_document(*sandbox_, std::move(content), std::move(media_type),
        std::move(name), limits);
    if(!parts)
        co_return parts.error();
    std::size_t const places = parts->size();
    agentio::retrieval::document doc{"uploads/" + file.record.owner, file.record.id, file.record.filename,
        std::move(*parts)};
    agentio::retrieval::document_ingest_options const how;
    co_await documents_->acquire();
    documents_state::held const hold{documents_.get()};
    auto written = co_await agentio::retrieval::ingest_document(*documents_->writer, std::move(doc), how);
    ++documents_->generation;
    if(!written)
        co_return file.record.filename + " cannot be indexed: " + written.error().message;
    co_return json::object{{"status", "processed"}, {"indexed", true}, {"parts", places},
        {"chunks", written->added + written->changed + written->unchanged}};
}

asio::awaitable<void> application::unindex_upload(agentio::threads::file_record const& file)
{
    if(!resources_.documents || !is_document(file.media_type))
        co_return;
    co_await documents_->acquire();
    documents_state::held const hold{documents_.get()};
    co_await documents_->writer->remove("uploads/" + file.owner, file.id);
    ++documents_->generation;
}

asio::awaitable<void> application::close()
{
    probe_timer_.cancel();
    if(auto c = std::exchange(resources_.sql, std::nullopt))
    {
        try
        {
            co_await c->close();
        }
        catch(std::exception const&)
        {
        }
    }
}

asio::awaitable<json::object> application::probe_provider()
{
    // The provider's model list: GET /models (OpenAI) or /v1/models (Anthropic).
    agentio::http::client_request req;
    bool const anthropic = config_.model.provider == llm::provider_kind::anthropic;
    if(anthropic)
    {
        req.url = config_.model.anthropic_base_url + "/v1/models";
        req.headers.set("x-api-key", config_.model.anthropic_api_key);
        req.headers.set("anthropic-version", config_.model.anthropic_version);
    }
    else
    {
        req.url = config_.model.openai_base_url + "/models";
        if(!config_.model.openai_api_key.empty())
            req.headers.set(bhttp::field::authorization, "Bearer " + config_.model.openai_api_key);
    }
    req.total_timeout = std::chrono::seconds(3);
    auto [err, res] = co_await http_.async_request(std::move(req), asio::use_awaitable);
    json::object provider{{"kind", anthropic ? "anthropic" : "openai"}, {"model", config_.model.effective_model()}};
    if(err)
    {
        provider["reachable"] = false;
        provider["error"] = err.message;
    }
    else if(!res.ok())
    {
        provider["reachable"] = true; // it answers, but does not list its models
        provider["error"] = "HTTP " + std::to_string(res.status) + " from " + (anthropic ? "/v1/models" : "/models");
    }
    else
    {
        provider["reachable"] = true;
        json::array listed;
        boost::system::error_code ec;
        auto const body = json::parse(res.body, ec);
        if(!ec && body.is_object())
            if(auto const* data = body.get_object().if_contains("data"); data && data->is_array())
                for(auto const& m : data->get_array())
                    if(m.is_object())
                        if(auto const* id = m.get_object().if_contains("id"); id && id->is_string())
                            listed.push_back(*id);
        provider["models"] = std::move(listed);
    }
    provider["checked_at"] =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    co_return provider;
}

asio::awaitable<void> application::watch_provider()
{
    std::optional<bool> reachable;
    for(;;)
    {
        auto status = co_await probe_provider();
        // Said at start, and whenever it changes: a provider that cannot be reached is the first thing to know.
        bool const now = status.at("reachable").as_bool() && !status.contains("error");
        if(reachable != now)
        {
            auto const url = agentio::log::redact_url(config_.model.provider == llm::provider_kind::anthropic
                    ? config_.model.anthropic_base_url
                    : config_.model.openai_base_url);
            if(now)
                log_.info("provider.reachable",
                    {{"url", url}, {"models", status.contains("models") ? status.at("models") : json::value()}});
            else // answers fail until it can: the first thing an operator should know
                log_.warn("provider.unreachable",
                    {{"url", url},
                        {"error", status.contains("error") ? status.at("error") : json::value("no answer")}});
            reachable = now;
        }
        {
            std::lock_guard lock(health_mutex_);
            provider_status_ = std::move(status);
        }
        probe_timer_.expires_after(std::chrono::seconds(30));
        auto [ec] = co_await probe_timer_.async_wait(asio::as_tuple(asio::use_awaitable));
        if(ec)
            co_return; // closing
    }
}

json::object application::health() const
{
    json::object provider;
    {
        std::lock_guard lock(health_mutex_);
        provider = provider_status_;
    }
    json::array served;
    for(auto const& m : api_.models())
        served.push_back(json::value(m->card().id));
    json::array warnings;
    for(auto const& w : warnings_)
        warnings.push_back(json::value(w));
    return json::object{{"status", "ok"}, {"models", std::move(served)}, {"provider", std::move(provider)},
        {"warnings", std::move(warnings)}};
}

std::size_t application::body_limit(bhttp::request_header<> const& head) const
{
    constexpr std::size_t chat = 8 * 1024 * 1024; // images come as data URLs
    return files_ ? files_->body_limit(head, chat) : chat;
}

agentio::http::router<> application::routes()
{
    agentio::http::router_options o;
    o.error_body = cc::write_error_body;
    // Each request counted by its route's pattern, logged (at debug for the scrapes and health checks), traced.
    agentio::http::router<> r(seen_.router_options(std::move(o)));
    api_.add_routes(r);
    // AG-UI in front of the same models, with the same users, threads and log lines as /v1.
    if(!ag_ui_)
        ag_ui_ = std::make_unique<agentio::ag_ui::endpoint>(api_);
    ag_ui_->add_routes(r);
    // A2A: the asistente to other agents, on the same runs.
    if(!a2a_)
    {
        agentio::a2a::endpoint_options a2a;
        a2a.agent = "asistente";
        a2a.card.name = "agentio-platform";
        a2a.card.description = "El agente general de la plataforma: matemáticas, Python en un sandbox, análisis de "
                               "datos, SQL, documentos, la web, Wikipedia y el tiempo.";
        a2a.card.version = AGENTIO_VERSION_STRING;
        a2a.card.security = config_.authenticates() ? agentio::a2a::card_security::jwt
                                                    : agentio::a2a::card_security::none;
        a2a.skills = skills_;
        a2a_ = std::make_unique<agentio::a2a::endpoint>(*ag_ui_, std::move(a2a));
    }
    a2a_->add_routes(r);
    if(files_)
        files_->add_routes(r);
    seen_.add_metrics_route(r);
    r.get("/health", [this](auto&& req, auto const&) -> asio::awaitable<bhttp::message_generator> {
        auto const body = health();
        co_return json_response(bhttp::status::ok, body, req.version());
    });
    return r;
}

} // namespace platform
