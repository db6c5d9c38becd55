// The agent: a prompt (and optionally start pages and a schema) in, an answer with its sources
// out. Deployments answer at once or run a job; the client polls the job form for you.
//
//   agent ["PROMPT"]
#include <iostream>
#include <string>

#include <webdata/webdata.hpp>

int main(int argc, char** argv) {
  webdata::Client client;

  webdata::AgentRequest request;
  request.prompt = argc > 1 ? argv[1] : "What does the Trail Kettle cost and what is it made of?";
  request.urls = std::vector<std::string>{"https://shop.example.test/products/trail-kettle"};
  request.schema = webdata::Json::parse(R"({
      "type": "object",
      "properties": {"price": {"type": "string"}, "material": {"type": "string"}},
      "required": ["price"]})").value();

  webdata::PollingPolicy polling;
  polling.interval = std::chrono::milliseconds(500);
  polling.max_wait = std::chrono::minutes(2);
  auto answer = client.agent(request, polling);
  if (!answer.ok()) {
    std::cerr << "agent failed: " << answer.error().describe() << "\n";
    return 1;
  }
  std::cout << "status: " << answer->status.value() << "\n";
  // The documented form is a JSON string holding the answer (docs/reference/agent.md#result);
  // some deployments send the object itself. Either way it is JSON text for the library of your choice.
  const std::string result = answer->result.as_string().value_or(answer->result.text());
  std::cout << "result: " << result << "\n";
  std::cout << "sources:\n";
  for (const auto& source : answer->sources) std::cout << "- " << source << "\n";
  if (answer->credits_used) std::cout << "credits: " << *answer->credits_used << "\n";
  const bool shaped = webdata::Json::parse(result).ok() && result.find("\"price\"") != std::string::npos;
  return answer->status == webdata::JobState::completed() && shaped && !answer->sources.empty() ? 0 : 1;
}
