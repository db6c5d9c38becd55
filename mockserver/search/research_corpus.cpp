#include "search/research_corpus.hpp"

namespace webdata::mock::search {

const std::vector<Paper>& research_papers() {
  static const std::vector<Paper> kPapers = {
      {"1001", "2101.00101", "", "Graph Neural Networks for Molecular Property Prediction",
       "We present a message passing graph neural network that predicts molecular properties "
       "from atom and bond graphs, improving accuracy on solubility and toxicity benchmarks.",
       "Ada Lindqvist, Rafael Moreno", {"cs.LG", "q-bio.BM"}, "2021-01-04",
       {"Molecules are graphs: atoms are nodes and bonds are edges.",
        "Our model passes messages along bonds for six rounds before a readout layer.",
        "On the solubility benchmark the mean absolute error drops from 0.58 to 0.41.",
        "We train on 130 thousand molecules of the QM9 dataset with the Adam optimizer."},
       {}},
      {"1002", "2103.00202", "", "Attention over Atoms: Transformers for Chemistry",
       "A transformer that attends over atoms and bonds learns molecular representations for "
       "property prediction and reaction outcome prediction.",
       "Mei Tanaka, Ada Lindqvist", {"cs.LG", "physics.chem-ph"}, "2021-03-15",
       {"Self-attention replaces message passing: every atom attends to every other atom.",
        "Bond types enter as biases on the attention scores.",
        "Reaction outcome accuracy reaches 91 percent on the USPTO benchmark."},
       {"1001"}},
      {"1003", "", "10.5555/bio.2022.0303", "CRISPR Base Editing Off-Target Effects in Human T Cells",
       "We measure off-target edits of cytosine and adenine base editors in primary human T "
       "cells with whole genome sequencing and report guide designs that reduce them.",
       "Lena Fischer, Samuel Okafor", {"q-bio.GN"}, "2022-02-10",
       {"Primary human T cells from six donors were edited with cytosine and adenine base editors.",
        "Whole genome sequencing found off-target edits at 0.2 percent of predicted sites.",
        "Truncated guides of 18 nucleotides reduced off-target edits threefold."},
       {}},
      {"1004", "2205.00404", "", "Semi-Supervised Learning on Molecular Graphs",
       "Unlabelled molecules improve graph neural network property prediction through "
       "consistency training and pseudo labels.",
       "Rafael Moreno, Priya Natarajan", {"cs.LG"}, "2022-05-20",
       {"Labels for molecular properties are expensive: a wet lab assay per molecule.",
        "Consistency training asks the network for the same prediction under graph augmentations.",
        "Pseudo labels from a teacher network add a further gain of 4 percent."},
       {"1001", "1002"}},
      {"1005", "2301.00505", "", "Retrieval Augmented Generation for Scientific Question Answering",
       "A retriever over paper passages and a generator answer scientific questions with "
       "citations; retrieval of in-body passages beats abstracts alone.",
       "Priya Natarajan, Tom Becker", {"cs.CL", "cs.IR"}, "2023-01-09",
       {"Questions about methods are answered from the methods section, not the abstract.",
        "Dense passage retrieval finds the answering passage in the top four 78 percent of the time.",
        "Every generated answer cites the passages it used."},
       {}},
      {"1006", "2306.00606", "", "Citation Graphs Find Related Work",
       "Co-citation and bibliographic coupling over a citation graph find related papers that "
       "keyword search misses; an intent reranks the candidates.",
       "Tom Becker, Mei Tanaka", {"cs.IR", "cs.DL"}, "2023-06-30",
       {"Two papers cited together by many others are likely about the same problem.",
        "Bibliographic coupling counts the references two papers share.",
        "Reranking by a stated intent keeps the related papers a reader wants."},
       {"1005"}},
      {"1007", "2310.00707", "", "Message Passing Networks Predict Protein Ligand Binding",
       "Graph neural networks over protein pockets and ligands predict binding affinity and "
       "transfer from molecular property prediction pretraining.",
       "Samuel Okafor, Ada Lindqvist", {"q-bio.BM", "cs.LG"}, "2023-10-02",
       {"Pockets and ligands form one graph with edges for contacts under 4 angstrom.",
        "Pretraining on molecular property prediction cuts binding affinity error by 12 percent."},
       {"1001", "1004"}},
      {"1008", "", "10.5555/bio.2024.0808", "Immune Cell Atlases from Single Cell Sequencing",
       "Single cell RNA sequencing of blood from 200 donors yields an atlas of immune cell "
       "states, including T cell exhaustion programmes.",
       "Lena Fischer, Hana Novak", {"q-bio.GN", "q-bio.CB"}, "2024-04-18",
       {"Blood from 200 donors was sequenced at the single cell level.",
        "T cells fall into eleven states; two of them are exhaustion programmes."},
       {"1003"}},
  };
  return kPapers;
}

const std::vector<Repo>& research_repos() {
  static const std::vector<Repo> kRepos = {
      {"acme/flowpipe", "Declarative data pipelines with retries and webhooks", "Go", "Apache-2.0",
       4200, false, false, {"data-pipelines", "etl"},
       "# flowpipe\n\nDeclarative data pipelines: sources, transforms and sinks in one YAML "
       "file. Failed steps retry with exponential backoff; a webhook fires when a run ends.",
       {{"issue", 412, "Retry backoff ignores max_delay",
         "With retries set to 8 the backoff grows past max_delay; expected it capped at 30s."},
        {"pull_request", 415, "Cap exponential backoff at max_delay",
         "Fixes #412: the backoff delay is the minimum of the doubled delay and max_delay."},
        {"issue", 430, "Webhook signature header missing on retries",
         "Retried webhook deliveries lack the X-Flowpipe-Signature header."}}},
      {"graphlab/molgraph", "Graph neural networks for molecules", "Python", "MIT", 1800, false,
       false, {"machine-learning", "chemistry"},
       "# molgraph\n\nMessage passing graph neural networks for molecular property prediction, "
       "with QM9 and solubility loaders and a training command line.",
       {{"issue", 77, "Out of memory on QM9 with batch size 512",
         "Training runs out of GPU memory; batch size 128 works."},
        {"pull_request", 81, "Gradient checkpointing for message passing layers",
         "Adds checkpointing so batch size 512 fits on a 16 GB GPU."}}},
      {"webkit-tools/scrapekit", "A small HTML scraping toolkit", "TypeScript", "", 950, true,
       false, {"scraping", "html"},
       "# scrapekit\n\nParse HTML, select with CSS selectors and turn pages into markdown. "
       "Archived: use a hosted scraping API instead.",
       {{"issue", 12, "Markdown tables lose alignment", "Column alignment markers are dropped."}}},
      {"lindqvist/molgraph-fork", "Fork of molgraph with protein pockets", "Python", "MIT", 40,
       false, true, {"machine-learning", "biology"},
       "# molgraph-fork\n\nmolgraph with protein pocket graphs for binding affinity.", {}},
  };
  return kRepos;
}

}  // namespace webdata::mock::search
