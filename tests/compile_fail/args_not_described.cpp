// expect: a tool's `args` must be described with BOOST_DESCRIBE_STRUCT
// Arguments that Boost.Describe does not know.
#include <agentio/tool.hpp>

#include <boost/describe.hpp>

struct contar
{
    static constexpr std::string_view name = "contar";
    static constexpr std::string_view description = "Cuenta iniciativas";
    struct args
    {
        int limite = 0;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args, agentio::tool_context&) const;
};


using tools = agentio::toolset<contar>;
static_assert(tools::size == 1);
int main() {}
