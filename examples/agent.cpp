// The agent: a prompt (and optionally start pages and a schema) in, an answer with its sources
// out. Deployments answer at once or run a job; the client polls the job form for you. A
// deployment without the agent says so (its HTML 404 becomes one line).
//
//   agent URL ["PROMPT"]     URL: the page to start from
#include <iostream>
#include <string>

#include "example_support.hpp"

int main(int argc, char** argv) {
  const std::string url = example::target(argc, argv);
  if (url.empty()) return example::usage("agent URL [\"PROMPT\"]");
  webdata::Client client;

  webdata::AgentRequest request;
  request.prompt = argc > 2 ? argv[2] : "What does this page offer, and at what price?";
  request.urls = std::vector<std::string>{url};
  request.schema = webdata::Json::parse(R"({
      "type": "object",
      "properties": {"price": {"type": "string"}, "material": {"type": "string"}},
      "required": ["price"]})").value();

  webdata::PollingPolicy polling;
  polling.interval = std::chrono::milliseconds(500);
  polling.max_wait = std::chrono::minutes(2);
  auto answer = client.agent(request, polling);
  if (!answer.ok()) {
    if (example::lacks_route(answer.error())) return 0;
    return example::failed("agent", answer.error());
  }
  std::cout << "status: " << answer->status.value() << "\n";
  // The documented form is a JSON string holding the answer (docs/reference/agent.md#result);
  // some deployments send the object itself. Either way it is JSON text for the library of your
  // choice.
  const std::string result = answer->result.as_string().value_or(answer->result.text());
  std::cout << "result: " << result << "\n";
  std::cout << "sources:\n";
  for (const auto& source : answer->sources) std::cout << "- " << source << "\n";
  if (answer->credits_used) std::cout << "credits: " << *answer->credits_used << "\n";
  if (answer->error) std::cout << "error: " << *answer->error << "\n";
  return answer->status == webdata::JobState::completed() ? 0 : 1;
}
