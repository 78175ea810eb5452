//
// agentio/a2a/impl/client.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_A2A_IMPL_CLIENT_HPP
#define AGENTIO_A2A_IMPL_CLIENT_HPP

#include <utility>

namespace agentio::a2a {

template<class Tools>
asio::awaitable<boost::system::result<std::string, std::string>> add_agent(client remote, Tools& tools,
    agent_tool_options options)
{
    auto card = co_await remote.card();
    if(!card)
        co_return boost::system::result<std::string, std::string>(boost::system::in_place_error,
            "the agent at " + remote.options().url + " has no usable card: " + card.error().message);
    std::string name = options.name.empty() ? tool_name_of(card->name) : std::move(options.name);
    std::string description = options.description.empty() ? describe(*card) : std::move(options.description);
    auto added = tools.add(agent_tool(std::move(remote), name, std::move(description), options.requires_approval));
    if(!added)
        co_return boost::system::result<std::string, std::string>(boost::system::in_place_error, added.error());
    co_return boost::system::result<std::string, std::string>(boost::system::in_place_value, std::move(name));
}

} // namespace agentio::a2a

#endif
