#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/usage.hpp"

namespace webdata::mock {

/// A team: the unit that owns jobs, credits and a webhook secret. API keys map to teams.
struct TeamConfig {
  std::string id;
  std::vector<std::string> keys;
  std::int64_t credits = 1000000;
  std::string webhook_secret = "test-secret";
  bool zero_data_retention = false;  ///< Whether the team may use `zeroDataRetention`.
  int concurrency = 8;                ///< Pages scraped at once across the team's jobs.
  std::int64_t tokens = 1000000;      ///< Extract tokens of a billing period (plan tokens).
};

/// A team as the handlers see it; immutable after start-up except its credit balance.
struct Team {
  std::string id;
  std::string webhook_secret;
  bool zero_data_retention = false;
  int concurrency = 8;
};

/// Outcome of checking an Authorization header.
struct AuthResult {
  const Team* team = nullptr;  ///< Set when authenticated.
  std::string error;           ///< The 401 message otherwise (wire-decisions section 2).
  std::string key;             ///< The API key that authenticated (for usage by key).
};

/// API keys, teams and their credit balances. Thread-safe.
class Teams {
 public:
  explicit Teams(const std::vector<TeamConfig>& teams);

  AuthResult authenticate(const std::optional<std::string>& authorization) const;
  const Team* find(const std::string& id) const;

  /// Takes `credits` from the team if it has them all; false (nothing taken) otherwise.
  bool try_charge(const std::string& team_id, std::int64_t credits);
  /// Takes `credits` even if that overdraws (work already done is billed as done).
  void charge(const std::string& team_id, std::int64_t credits);
  std::int64_t balance(const std::string& team_id) const;
  void set_balance(const std::string& team_id, std::int64_t credits);
  /// Restores every balance to its configured value (and forgets the usage history).
  void reset_balances();

  /// The clock that dates charges in the usage ledger (the system clock until set).
  void set_clock(const Clock* clock) { clock_ = clock; }
  /// Bills extract tokens (they have their own allowance; credits are separate).
  void charge_tokens(const std::string& team_id, std::int64_t tokens);
  std::int64_t plan_credits(const std::string& team_id) const;
  std::int64_t plan_tokens(const std::string& team_id) const;
  /// Every charge, dated and attributed to the key in effect (UsageAttribution).
  const UsageLedger& usage() const { return usage_; }

 private:
  std::map<std::string, Team> teams_;
  std::map<std::string, std::string> key_to_team_;
  std::map<std::string, std::int64_t> initial_;
  mutable std::mutex mutex_;
  std::map<std::string, std::int64_t> balance_;
  std::map<std::string, std::int64_t> plan_tokens_;
  const Clock* clock_ = nullptr;
  UsageLedger usage_;
  TimePoint now() const;
  void record(const std::string& team_id, UsageUnit unit, std::int64_t amount);
};

}  // namespace webdata::mock
