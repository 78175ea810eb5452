#define BOOST_TEST_MODULE agentio fake llm tests
#include <boost/test/unit_test.hpp>
