// OpenSpiel's own C++ games, timed as bench/openspiel_peers.py times boardlab's kernels.
//
//   openspiel_peers random GAME SECONDS SEED        -> "moves games cpu_seconds"
//   openspiel_peers mcts GAME SECONDS SEED          -> "simulations searches cpu_seconds"
//
// random: uniformly random playouts from the start (LegalActions, then ApplyAction of one drawn with
// a Mersenne twister), as many as fit in SECONDS of this process's CPU time. mcts: OpenSpiel's
// MCTSBot (UCT, c = 2, one random rollout an evaluation, no solver) searching the start position,
// 1000 simulations a search, searches repeated for SECONDS. Built against the open_spiel wheel's
// headers and its pyspiel.so, which holds the compiled library (bench/openspiel_peers.py builds it).
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "open_spiel/algorithms/mcts.h"
#include "open_spiel/spiel.h"

static double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s random|mcts GAME SECONDS SEED\n", argv[0]);
    return 2;
  }
  const std::string mode = argv[1];
  const double seconds = std::atof(argv[3]);
  const int seed = std::atoi(argv[4]);
  std::shared_ptr<const open_spiel::Game> game = open_spiel::LoadGame(argv[2]);
  if (mode == "random") {
    std::mt19937_64 rng(seed);
    long moves = 0, games = 0;
    const double began = cpu_seconds();
    double used = 0;
    while (used < seconds) {
      for (int i = 0; i < 20; ++i) {  // read the clock every 20 games
        std::unique_ptr<open_spiel::State> state = game->NewInitialState();
        while (!state->IsTerminal()) {
          std::vector<open_spiel::Action> legal = state->LegalActions();
          state->ApplyAction(legal[rng() % legal.size()]);
          ++moves;
        }
        ++games;
      }
      used = cpu_seconds() - began;
    }
    std::printf("%ld %ld %.6f\n", moves, games, used);
    return 0;
  }
  if (mode == "mcts") {
    auto evaluator = std::make_shared<open_spiel::algorithms::RandomRolloutEvaluator>(1, seed);
    const int per_search = 1000;
    open_spiel::algorithms::MCTSBot bot(*game, evaluator, 2.0, per_search, 1000, false, seed, false);
    std::unique_ptr<open_spiel::State> start = game->NewInitialState();
    bot.Step(*start);  // warm up
    long searches = 0;
    const double began = cpu_seconds();
    double used = 0;
    while (used < seconds) {
      bot.Step(*start);
      ++searches;
      used = cpu_seconds() - began;
    }
    std::printf("%ld %ld %.6f\n", searches * per_search, searches, used);
    return 0;
  }
  std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
  return 2;
}
