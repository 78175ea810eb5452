#include "app/server.hpp"

#include <boost/asio/ip/address.hpp>

#include <stdexcept>

namespace portfolio {

portfolio_server::portfolio_server(server_options options)
    : options_(std::move(options))
    , ioc_(static_cast<int>(options_.threads))
{
    std::vector<agentio::sqlite::connection> connections;
    for(unsigned i = 0; i < options_.db_threads; ++i)
    {
        auto c = agentio::sqlite::connection::open(options_.db_path, agentio::sqlite::open_mode::read_only);
        if(!c)
            throw std::runtime_error("no se puede abrir la base de datos " + options_.db_path.string() + ": " +
                c.error().message());
        api::register_functions(*c);
        connections.push_back(std::move(*c));
    }
    auto schema = api::load_schema(connections.front());
    if(auto* e = std::get_if<api::api_error>(&schema))
        throw std::runtime_error(options_.db_path.string() + ": " + e->detail);
    auto shared_schema = std::make_shared<api::database_schema const>(std::move(std::get<api::database_schema>(schema)));

    pool_ = std::make_unique<agentio::sqlite::query_pool>(std::move(connections));
    chat_ = std::make_shared<agent::chat_service>(ioc_.get_executor(), options_.chat);
    http_ = std::make_unique<agentio::http::server<app_handler>>(ioc_.get_executor(),
        app_handler(api::rest_api(shared_schema, *pool_, options_.limits), chat_), options_.http);

    boost::system::error_code ec;
    auto const address = boost::asio::ip::make_address(options_.host, ec);
    if(ec)
        throw std::runtime_error("dirección no válida '" + options_.host + "': " + ec.message());
    auto ep = http_->listen({address, options_.port});
    if(!ep)
        throw std::runtime_error("no se puede escuchar en " + options_.host + ":" + std::to_string(options_.port) +
            ": " + ep.error().message());
    endpoint_ = *ep;
    chat_->start(endpoint_); // the tools call this server's API unless AGENT_API_BASE_URL says otherwise
    http_->start();
}

portfolio_server::~portfolio_server()
{
    stop();
    // Connections' coroutines die with the io_context, before the pool they may wait on.
    http_.reset();
}

void portfolio_server::run()
{
    std::vector<std::thread> extra;
    for(unsigned i = 1; i < options_.threads; ++i)
        extra.emplace_back([this] { ioc_.run(); });
    ioc_.run();
    for(auto& t : extra)
        t.join();
}

boost::asio::awaitable<std::optional<boost::beast::http::message_generator>> app_handler::operator()(
    agentio::http::request&& req, boost::beast::tcp_stream& stream)
{
    auto const target = req.target();
    auto const path = target.substr(0, target.find('?'));
    if(path == "/api/v1/agent/chat")
        co_return co_await chat_->handle(std::move(req), stream);
    co_return co_await api_(std::move(req));
}

void portfolio_server::stop()
{
    ioc_.stop();
}

} // namespace portfolio
