#include "core/teams.hpp"

#include <cctype>

namespace webdata::mock {

Teams::Teams(const std::vector<TeamConfig>& teams) {
  for (const auto& t : teams) {
    teams_[t.id] = Team{t.id, t.webhook_secret, t.zero_data_retention, t.concurrency};
    for (const auto& key : t.keys) key_to_team_[key] = t.id;
    initial_[t.id] = t.credits;
    balance_[t.id] = t.credits;
    plan_tokens_[t.id] = t.tokens;
  }
}

AuthResult Teams::authenticate(const std::optional<std::string>& authorization) const {
  AuthResult out;
  if (!authorization) {
    out.error = "Unauthorized";
    return out;
  }
  // "Bearer <token>": the scheme is case-insensitive, surrounding blanks are ignored.
  const std::string& h = *authorization;
  std::size_t pos = h.find_first_not_of(" \t");
  if (pos == std::string::npos) {
    out.error = "Unauthorized: Token missing";
    return out;
  }
  std::size_t end = h.find_first_of(" \t", pos);
  std::string scheme = h.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
  for (auto& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string token;
  if (end != std::string::npos) {
    const auto start = h.find_first_not_of(" \t", end);
    if (start != std::string::npos) {
      const auto stop = h.find_last_not_of(" \t");
      token = h.substr(start, stop - start + 1);
    }
  }
  if (scheme != "bearer") {
    out.error = "Unauthorized: Invalid token";
    return out;
  }
  if (token.empty()) {
    out.error = "Unauthorized: Token missing";
    return out;
  }
  const auto it = key_to_team_.find(token);
  if (it == key_to_team_.end()) {
    out.error = "Unauthorized: Invalid token";
    return out;
  }
  out.team = &teams_.at(it->second);
  out.key = token;
  return out;
}

const Team* Teams::find(const std::string& id) const {
  const auto it = teams_.find(id);
  return it == teams_.end() ? nullptr : &it->second;
}

bool Teams::try_charge(const std::string& team_id, std::int64_t credits) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& balance = balance_[team_id];
  if (balance < credits) return false;
  balance -= credits;
  record(team_id, UsageUnit::credits, credits);
  return true;
}

void Teams::charge(const std::string& team_id, std::int64_t credits) {
  std::lock_guard<std::mutex> lock(mutex_);
  balance_[team_id] -= credits;
  record(team_id, UsageUnit::credits, credits);
}

std::int64_t Teams::balance(const std::string& team_id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = balance_.find(team_id);
  return it == balance_.end() ? 0 : it->second;
}

void Teams::set_balance(const std::string& team_id, std::int64_t credits) {
  std::lock_guard<std::mutex> lock(mutex_);
  balance_[team_id] = credits;
}

void Teams::reset_balances() {
  std::lock_guard<std::mutex> lock(mutex_);
  balance_ = initial_;
  usage_.clear();
}

TimePoint Teams::now() const {
  return clock_ != nullptr ? clock_->now() : std::chrono::system_clock::now();
}

void Teams::record(const std::string& team_id, UsageUnit unit, std::int64_t amount) {
  usage_.record(team_id, unit, amount, now(), UsageAttribution::current());
}

void Teams::charge_tokens(const std::string& team_id, std::int64_t tokens) {
  record(team_id, UsageUnit::tokens, tokens);
}

std::int64_t Teams::plan_credits(const std::string& team_id) const {
  const auto it = initial_.find(team_id);
  return it == initial_.end() ? 0 : it->second;
}

std::int64_t Teams::plan_tokens(const std::string& team_id) const {
  const auto it = plan_tokens_.find(team_id);
  return it == plan_tokens_.end() ? 0 : it->second;
}

}  // namespace webdata::mock
