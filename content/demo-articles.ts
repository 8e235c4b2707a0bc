import type { ArticleType } from '../common/limits.ts';

/**
 * Demo content for a fresh installation: Volume 1, Issue 1 and five articles, with the full text the seed
 * typesets into each article's PDF. The people, institutions, e-mail addresses (all under the reserved
 * `.example` domain, so nothing is ever sent to a real person), data and results are fictional; the
 * references are real, well-known works in each field. Seeded once: editors' later changes are kept.
 */

export interface DemoAuthor {
  name: string;
  email: string;
  affiliation: string;
  /** Matches the affiliation's number ("1", "2", …); authors sharing an affiliation share it. */
  superscript: string;
  /**
   * A fictional ORCID iD: valid check digit, but from 0000-0000-…, a block ORCID does not issue, so no demo
   * author is ever linked to a real person's record (the link opens ORCID's "not found").
   */
  orcid?: string;
  corresponding?: boolean;
}

export interface DemoTable {
  caption: string;
  columns: string[];
  rows: string[][];
}

export interface DemoFigure {
  caption: string;
  /** What the bars measure, printed on the axis. */
  unit: string;
  bars: { label: string; value: number }[];
}

export interface DemoSection {
  heading: string;
  paragraphs: string[];
  /** Placed after the section's paragraphs. */
  table?: DemoTable;
  figure?: DemoFigure;
}

export interface DemoArticle {
  /** Last part of the DOI, e.g. "001" in 10.5555/cjei.2025.1.1.001. */
  number: string;
  title: string;
  articleType: ArticleType;
  abstract: string;
  /** 4-5 keywords, comma-separated, as the articles table keeps them. */
  keywords: string;
  authors: DemoAuthor[];
  received: string;
  accepted: string;
  publicationDate: string;
  sections: DemoSection[];
  funding: string;
  dataAvailability: string;
  references: string[];
}

export const demoVolume = { title: 'Volume 1', volumeNumber: 1, year: 2025 } as const;

export const demoIssue = {
  title: 'Issue 1',
  issueNumber: 1,
  description:
    'The inaugural issue of the journal brings together five papers from India and abroad: adaptive duty cycling for LoRaWAN soil-moisture sensing on smallholder farms, a distilled transformer for code-mixed Tamil-English sentiment analysis on low-cost devices, a permissioned blockchain audit trail for academic credentials, physics-informed forecasting of rooftop solar output, and a review with an empirical comparison of test prioritisation techniques for continuous integration.',
  publicationDate: '2025-03-01',
} as const;

export const demoArticles: DemoArticle[] = [
  {
    number: '001',
    title:
      'Energy-Aware Adaptive Duty Cycling for LoRaWAN Soil-Moisture Sensor Networks on Smallholder Farms',
    articleType: 'Research Article',
    abstract:
      "Soil-moisture sensing helps smallholder farmers schedule irrigation, but battery-powered LoRaWAN nodes that report at a fixed interval either waste energy during stable periods or miss the rapid changes that follow rain and irrigation. This paper presents ADC-Soil, an adaptive duty-cycling scheme that runs on the sensor node and sets the next reporting interval from a short-horizon forecast of the soil-moisture trajectory and the node's remaining energy budget. The node fits a two-parameter exponential drying model to its recent readings, estimates when the reading will cross the farmer's irrigation threshold, and wakes more often only as that crossing approaches or when an abrupt change is detected. A gateway-side rule shortens the schedule when the forecast residual grows. We deployed 24 node pairs on three farms near Salem, Tamil Nadu, for 118 days during the 2024 north-east monsoon and compared ADC-Soil with fixed 15-minute and 60-minute schedules on co-located twin nodes. ADC-Soil reduced transmissions by 71% against the 15-minute schedule, extending projected battery life from 11 to 36 months, while detecting 96% of threshold crossings within 20 minutes. The firmware and the anonymised dataset are openly released.",
    keywords: 'LoRaWAN, adaptive duty cycling, soil moisture, precision irrigation, energy efficiency',
    authors: [
      {
        name: 'Karthikeyan Ramasamy',
        email: 'k.ramasamy@sivagiri-tech.example',
        affiliation:
          'Department of Electronics and Communication Engineering, Sivagiri Institute of Engineering and Technology, Salem 636011, Tamil Nadu, India',
        superscript: '1',
        orcid: '0000-0000-0001-0015',
        corresponding: true,
      },
      {
        name: 'Priya Venkatesan',
        email: 'priya.v@sivagiri-tech.example',
        affiliation:
          'Department of Electronics and Communication Engineering, Sivagiri Institute of Engineering and Technology, Salem 636011, Tamil Nadu, India',
        superscript: '1',
      },
      {
        name: 'Daniel Okafor',
        email: 'd.okafor@harcourt-coast.example',
        affiliation:
          'Department of Computer Engineering, Harcourt Coast University of Technology, Port Harcourt, Nigeria',
        superscript: '2',
        orcid: '0000-0000-0001-0023',
      },
    ],
    received: '2024-12-02',
    accepted: '2025-02-10',
    publicationDate: '2025-03-01',
    sections: [
      {
        heading: 'Introduction',
        paragraphs: [
          'Irrigation accounts for most of the fresh water drawn in South India, and on smallholder farms it is still largely scheduled by habit: a field is watered on fixed days whatever the state of the soil. Low-cost capacitive soil-moisture probes connected through long-range, low-power radio promise to change this, because a single LoRaWAN gateway on a farmhouse roof can collect readings from sensors several kilometres away. The obstacle in practice is not the radio but the battery. Farmers will not replace batteries every few months, and every uplink costs far more energy than the measurement itself.',
          'Most deployments report at a fixed interval chosen as a compromise. A short interval captures the sharp rise in moisture after irrigation or rain, but spends most of its energy confirming that nothing has changed during long dry spells. A long interval saves energy but can report a threshold crossing an hour or more after it happened, which matters when a pump is switched by the reading. The information content of the readings, however, is highly uneven in time: soil dries slowly and predictably between events, and changes quickly and unpredictably during them.',
          "We therefore let each node decide when its next reading is worth sending. Our contributions are: (i) ADC-Soil, a node-side scheduler that sets the reporting interval from a forecast of the time to the next irrigation-threshold crossing and from the remaining energy budget; (ii) a lightweight gateway rule that tightens the schedule when the node's forecasts stop matching reality; and (iii) a 118-day field comparison on three farms using twin nodes, one running ADC-Soil and one a fixed schedule, at each of 24 locations.",
        ],
      },
      {
        heading: 'Related Work',
        paragraphs: [
          'The range and capacity of LoRa links have been characterised extensively [1]-[3]. Adelantado et al. showed that the duty-cycle limits of the unlicensed bands, rather than the physical layer, bound the traffic a LoRaWAN cell can carry [2], and Bor et al. found that collisions grow quickly once many nodes transmit at fixed intervals [3]. Both results favour schedules that transmit less often and less regularly.',
          'Energy management in sensor networks has long adapted sampling to the energy available, especially with harvesting [5]. Adaptive sampling driven by the signal itself is common in environmental monitoring, but many schemes run the model at the gateway and push new schedules downlink, which is costly on LoRaWAN, where downlinks are scarce and only follow an uplink in Class A. Agronomic models of soil drying are well established [4]; we use only the simplest exponential form, because it must run on a microcontroller with a few kilobytes of memory.',
        ],
      },
      {
        heading: 'System Design and Method',
        paragraphs: [
          "Each node samples soil moisture every five minutes, which costs about 0.3 mJ, but only transmits when the scheduler says so. Between irrigation events the node fits the model theta(t) = theta_r + (theta_0 - theta_r) exp(-k t) to its readings since the last wetting event, where theta_r is a residual moisture learnt per site and k the drying rate. A recursive least-squares update keeps the fit to a few dozen floating-point operations per sample. From the fitted curve the node computes the expected time T until the reading crosses the farmer's irrigation threshold.",
          'The next reporting interval is set to a fraction of T, bounded between 10 minutes and 4 hours, and scaled by the ratio between the energy actually remaining and the energy the node should have at this point of its target life. A node that is ahead of its budget therefore reports slightly more often, and one that is behind reports less. An abrupt change, defined as a five-minute difference larger than four times the recent residual, triggers an immediate uplink, so wetting events are never smoothed away.',
          "At the gateway, the network server compares each uplink with the value the node's last reported model predicted. When the mean absolute residual over the last six uplinks exceeds 2% volumetric water content, it piggybacks a short downlink on the next acknowledgement that halves the node's maximum interval for a day. This is the only downlink the scheme uses, and it was sent on average 1.4 times per node per week.",
          'For the evaluation, 24 locations on three farms growing turmeric, tapioca and banana were each fitted with two identical nodes 30 cm apart: one running ADC-Soil and one a fixed schedule of 15 or 60 minutes, alternated by location. All nodes used the same 3.6 V, 1,200 mAh lithium thionyl chloride cell and transmitted at spreading factor 12 and 20 dBm, because the most distant node was 6.8 km from the gateway on the tallest farm building. Energy was measured on the boards with a coulomb counter and converted to projected life at the observed rate.',
        ],
      },
      {
        heading: 'Results',
        paragraphs: [
          'Table 1 summarises the field results. Over the 118 days, ADC-Soil nodes sent 27.9 uplinks per day on average, against 96 for the 15-minute schedule, a reduction of 71%. Their projected battery life was 36.0 months, not far from the 41.5 months of the 60-minute schedule, which sends fewer messages on dry days but reacts far more slowly. The 15-minute schedule detected almost every threshold crossing within 20 minutes but would empty its battery within a year.',
          'The behaviour of the scheduler follows the weather (Figure 1). During dry spells the nodes reported about 14 times a day, as the forecast crossing was many hours away. On irrigation days the rate rose to about 42 uplinks per day, and after heavy rainfall, when the drying curve restarts and residuals are large, to about 52. Of the 212 threshold crossings recorded by the reference nodes, ADC-Soil reported 204 within 20 minutes; the eight late reports all followed light showers too small to trigger the abrupt-change rule.',
          'Packet delivery ratios were 97.8% for ADC-Soil and 96.1% for the 15-minute schedule. We attribute the small difference to fewer collisions, consistent with the capacity analyses in [2], [3], although with 48 nodes in the cell the effect is modest.',
        ],
        table: {
          caption:
            'Field results over 118 days at 24 twin-node locations (mean, with standard deviation across nodes).',
          columns: ['Schedule', 'Uplinks/day', 'Energy/day (J)', 'Life (months)', 'Crossings in 20 min'],
          rows: [
            ['Fixed, 15 min', '96.0', '40.5 ± 0.6', '11.2', '99.1%'],
            ['Fixed, 60 min', '24.0', '10.9 ± 0.3', '41.5', '58.4%'],
            ['ADC-Soil', '27.9 ± 6.3', '12.6 ± 1.9', '36.0', '96.2%'],
          ],
        },
        figure: {
          caption:
            'Mean uplinks per node per day under ADC-Soil, by field condition, with the fixed 15-minute schedule for reference.',
          unit: 'uplinks per day',
          bars: [
            { label: 'Dry spell', value: 14.2 },
            { label: 'Irrigation day', value: 41.7 },
            { label: 'After rain', value: 52.3 },
            { label: 'Fixed 15 min', value: 96 },
          ],
        },
      },
      {
        heading: 'Discussion',
        paragraphs: [
          'The gain comes from a simple observation: between wetting events soil moisture is predictable enough that most fixed-interval readings carry almost no information. The exponential model is crude, and on the clay soils of one farm it consistently underestimated drying in the afternoon heat, but the gateway residual rule corrected for this within a day. Richer models, for instance ones that use evapotranspiration estimates from a nearby weather station, could lengthen intervals further at the price of more computation and a dependency on external data.',
          'Two limitations deserve mention. The deployment covered one season in one district, and soils with rapid preferential flow may behave differently. And projected battery life was extrapolated from four months of measurements; self-discharge and temperature effects over several years are not captured.',
        ],
      },
      {
        heading: 'Conclusion',
        paragraphs: [
          'Letting LoRaWAN soil-moisture nodes forecast their own readings and report only when a report is likely to matter cut transmissions by almost three quarters against a 15-minute schedule, tripled the projected battery life and still caught 96% of irrigation-threshold crossings within 20 minutes. The scheme needs no downlink in normal operation and fits in under 4 KB of firmware. We are extending the field study to a second season and to drip-irrigated plots, where pumps are switched automatically from the readings.',
        ],
      },
    ],
    funding:
      'This work was supported by a seed grant of the Sivagiri Institute of Engineering and Technology research council.',
    dataAvailability:
      "The node firmware and the anonymised 118-day dataset are available from the corresponding author and in the journal's supplementary archive.",
    references: [
      'Augustin, A.; Yi, J.; Clausen, T.; Townsley, W.M. A study of LoRa: Long range & low power networks for the Internet of Things. Sensors 2016, 16, 1466.',
      'Adelantado, F.; Vilajosana, X.; Tuset-Peiro, P.; Martinez, B.; Melia-Segui, J.; Watteyne, T. Understanding the limits of LoRaWAN. IEEE Communications Magazine 2017, 55, 34-40.',
      'Bor, M.C.; Roedig, U.; Voigt, T.; Alonso, J.M. Do LoRa low-power wide-area networks scale? In Proceedings of the 19th ACM International Conference on Modeling, Analysis and Simulation of Wireless and Mobile Systems (MSWiM), 2016; pp. 59-67.',
      'Allen, R.G.; Pereira, L.S.; Raes, D.; Smith, M. Crop Evapotranspiration: Guidelines for Computing Crop Water Requirements; FAO Irrigation and Drainage Paper 56; FAO: Rome, Italy, 1998.',
      'Kansal, A.; Hsu, J.; Zahedi, S.; Srivastava, M.B. Power management in energy harvesting sensor networks. ACM Transactions on Embedded Computing Systems 2007, 6, 32.',
      'LoRa Alliance. LoRaWAN L2 1.0.4 Specification (TS001-1.0.4); LoRa Alliance: Fremont, CA, USA, 2020.',
    ],
  },
  {
    number: '002',
    title:
      'Distilling a Multilingual Transformer for Code-Mixed Tamil-English Sentiment Analysis on Low-Cost Edge Devices',
    articleType: 'Research Article',
    abstract:
      'Social-media comments in South India are often written in code-mixed Tamil and English, frequently in Roman script, which large multilingual language models handle well but small on-device models do not. We study how far such a model can be compressed for sentiment analysis on low-cost hardware without losing its robustness to code-mixing. A 270-million-parameter multilingual transformer fine-tuned on 42,000 annotated comments serves as the teacher. We distil it into a four-layer student with 14 million parameters using soft-label distillation, intermediate-layer matching and a transliteration-aware augmentation that presents each training comment in native script, in Roman script and in mixed forms. After 8-bit quantisation the student occupies 15 MB and classifies a comment in 9 ms on a single core of a Raspberry Pi 4. On a held-out test set it reaches a macro F1 of 0.712, against 0.741 for the teacher and 0.648 for the same student trained without distillation. The augmentation alone accounts for 3.1 points of macro F1 on Romanised comments. We discuss where the remaining errors lie, chiefly sarcasm and comments that switch language mid-word, and release the student model.',
    keywords: 'knowledge distillation, code-mixing, sentiment analysis, edge computing, Tamil',
    authors: [
      {
        name: 'Anjali Menon',
        email: 'anjali.menon@vaigai-eng.example',
        affiliation:
          'Department of Computer Science and Engineering, Vaigai College of Engineering, Madurai 625009, Tamil Nadu, India',
        superscript: '1',
        orcid: '0000-0000-0001-0031',
        corresponding: true,
      },
      {
        name: 'Rahul Sharma',
        email: 'rahul.sharma@deccan-iit.example',
        affiliation:
          'Centre for Language Technologies, Deccan Institute of Information Technology, Pune 411057, India',
        superscript: '2',
      },
      {
        name: 'Sofia Lindqvist',
        email: 'sofia.lindqvist@norrland-tech.example',
        affiliation: 'Department of Computing Science, Norrland University of Technology, Umeå, Sweden',
        superscript: '3',
      },
    ],
    received: '2024-11-18',
    accepted: '2025-02-03',
    publicationDate: '2025-03-01',
    sections: [
      {
        heading: 'Introduction',
        paragraphs: [
          'A large share of the comments that Tamil speakers post on video platforms and social networks mix Tamil and English within a sentence, and many are typed in Roman script because that is what a phone keyboard offers by default. A comment such as "padam semma, but climax konjam slow" is transparent to a bilingual reader and opaque to a monolingual model. Sentiment analysis of such text matters to small media companies, local governments running feedback channels and researchers, who increasingly want to run it on their own modest hardware rather than send comments to a remote service.',
          "Multilingual transformers pre-trained on many languages [4] handle code-mixed text surprisingly well once fine-tuned, but with hundreds of millions of parameters they are too large and slow for a single-board computer. Knowledge distillation [2], [3] compresses a large teacher into a small student that imitates it, and usually keeps most of its accuracy on the task it was distilled for. Whether it keeps the teacher's robustness to script and language switching is less clear, because the student's small vocabulary and shallow depth give it little room to learn that a Roman-script word and its Tamil-script form mean the same thing.",
          'This paper makes three contributions: a distillation recipe for code-mixed sentiment analysis that combines soft labels with intermediate-layer matching; a transliteration-aware augmentation that makes the student see each comment in several scripts; and a measurement of accuracy, size and latency on a Raspberry Pi 4, with an error analysis of what the compressed model loses.',
        ],
      },
      {
        heading: 'Related Work',
        paragraphs: [
          'Shared tasks on code-mixed Dravidian languages have produced annotated corpora of YouTube comments with sentiment labels [5] and a series of systems, most of them fine-tuned multilingual transformers. These corpora show the difficulty of the task: classes are imbalanced, a sizeable share of comments is in another language altogether, and annotator agreement on mixed feelings is modest.',
          'General-purpose distillation such as DistilBERT [3] halves the depth of a transformer with a small loss on English benchmarks. Task-specific distillation, where the teacher is first fine-tuned and the student learns from its outputs on task data, typically allows much smaller students. Integer quantisation [6] reduces size and latency further on processors without floating-point accelerators. We combine the two, and focus on the interaction between compression and script variation that earlier work has not measured.',
        ],
      },
      {
        heading: 'Method',
        paragraphs: [
          "The data set contains 42,000 comments collected from public videos on Tamil films, cricket and local news between 2021 and 2024, labelled by three annotators as positive, negative, neutral, mixed feelings or not Tamil. Inter-annotator agreement (Krippendorff's alpha) was 0.69. We split it 80/10/10 by video, so that comments on one video never appear in two splits, which removes an optimistic bias present in random splits.",
          "The teacher is a 270-million-parameter multilingual transformer fine-tuned for five epochs with a class-weighted cross-entropy loss. The student has four layers, a hidden size of 312 and a 24,000-token vocabulary built from the training comments in both scripts, for 14 million parameters. It is trained with a weighted sum of three losses: cross-entropy against the gold labels, the Kullback-Leibler divergence between the softened output distributions of student and teacher at temperature 3, and the mean squared error between the student's hidden states and a learned projection of every third teacher layer.",
          'The transliteration-aware augmentation converts each training comment into three variants using a rule-based transliterator: the whole comment in Tamil script, the whole comment in Roman script with common informal spellings, and a random mixture in which each Tamil word keeps its original script with probability one half. The teacher labels every variant, so the student learns that the variants should receive the same distribution. After training, weights and activations are quantised to 8-bit integers with per-channel scales calibrated on 2,000 training comments.',
        ],
      },
      {
        heading: 'Results',
        paragraphs: [
          "Table 1 compares the models on the held-out test split. The distilled and quantised student reaches a macro F1 of 0.712, recovering 70% of the gap between the undistilled student (0.648) and the teacher (0.741), with about one nineteenth of the teacher's parameters. Quantisation cost 0.004 in macro F1, less than the variation between training runs with different seeds.",
          "The augmentation matters most where it was designed to help. On the 38% of test comments written entirely in Roman script, removing it lowers the student's macro F1 by 3.1 points, while on native-script comments the difference is within noise. Figure 1 shows per-comment latency on a single Cortex-A72 core: the student needs 9 ms, against 164 ms for the teacher, so a Raspberry Pi 4 can classify more than 400 comments per second using all four cores.",
          "The remaining errors fall into three groups. Sarcasm, often marked only by an emoji or an exaggerated compliment, accounts for about a third of the student's errors and a similar share of the teacher's. Comments that switch language inside a word, such as English verbs with Tamil inflections, are the largest group of errors the teacher gets right and the student does not. Finally, the mixed-feelings class remains hard for every model, with per-class F1 below 0.45.",
        ],
        table: {
          caption: 'Accuracy, size and latency on the held-out test split (mean of three training runs).',
          columns: ['Model', 'Parameters', 'Size (MB)', 'Macro F1', 'Latency (ms)'],
          rows: [
            ['Teacher (fine-tuned)', '270 M', '1,060', '0.741', '164'],
            ['Student, no distillation', '14 M', '56', '0.648', '31'],
            ['Student, distilled', '14 M', '56', '0.716', '31'],
            ['Student, distilled + int8', '14 M', '15', '0.712', '9'],
          ],
        },
        figure: {
          caption: 'Median latency per comment on one core of a Raspberry Pi 4 (Cortex-A72, 1.5 GHz).',
          unit: 'milliseconds per comment',
          bars: [
            { label: 'Teacher', value: 164 },
            { label: 'Student fp32', value: 31 },
            { label: 'Student int8', value: 9 },
          ],
        },
      },
      {
        heading: 'Conclusion',
        paragraphs: [
          "A four-layer student distilled from a multilingual teacher keeps most of the teacher's accuracy on code-mixed Tamil-English sentiment analysis while running in 9 ms on a low-cost single-board computer. Exposing the student to each comment in several scripts is what preserves its robustness to Romanised text. Future work will extend the augmentation to intra-word switching, the main weakness that remains, and test the recipe on Malayalam and Kannada code-mixed text.",
        ],
      },
    ],
    funding: 'This research received no external funding.',
    dataAvailability:
      "Comment identifiers, labels and the trained student model are available from the corresponding author for research use; the comment texts cannot be redistributed under the platforms' terms.",
    references: [
      'Vaswani, A.; Shazeer, N.; Parmar, N.; Uszkoreit, J.; Jones, L.; Gomez, A.N.; Kaiser, L.; Polosukhin, I. Attention is all you need. In Advances in Neural Information Processing Systems 30 (NeurIPS), 2017; pp. 5998-6008.',
      'Hinton, G.; Vinyals, O.; Dean, J. Distilling the knowledge in a neural network. arXiv 2015, arXiv:1503.02531.',
      'Sanh, V.; Debut, L.; Chaumond, J.; Wolf, T. DistilBERT, a distilled version of BERT: Smaller, faster, cheaper and lighter. arXiv 2019, arXiv:1910.01108.',
      'Conneau, A.; Khandelwal, K.; Goyal, N.; Chaudhary, V.; Wenzek, G.; Guzman, F.; Grave, E.; Ott, M.; Zettlemoyer, L.; Stoyanov, V. Unsupervised cross-lingual representation learning at scale. In Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics, 2020; pp. 8440-8451.',
      'Chakravarthi, B.R.; Muralidaran, V.; Priyadharshini, R.; McCrae, J.P. Corpus creation for sentiment analysis in code-mixed Tamil-English text. In Proceedings of the 1st Joint Workshop on Spoken Language Technologies for Under-resourced Languages (SLTU) and Collaboration and Computing for Under-Resourced Languages (CCURL), 2020; pp. 202-210.',
      'Jacob, B.; Kligys, S.; Chen, B.; Zhu, M.; Tang, M.; Howard, A.; Adam, H.; Kalenichenko, D. Quantization and training of neural networks for efficient integer-arithmetic-only inference. In Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition (CVPR), 2018; pp. 2704-2713.',
    ],
  },
  {
    number: '003',
    title: 'A Permissioned Blockchain Audit Trail for Tamper-Evident Verification of Academic Credentials',
    articleType: 'Research Article',
    abstract:
      "Forged degree certificates remain a costly problem for employers and universities, and verification still relies on slow e-mail exchanges with registrars. Public blockchains have been proposed as a remedy, but writing credentials to a public ledger conflicts with data-protection law and exposes institutions to fluctuating transaction fees. We present CrediChain, a permissioned ledger operated by a consortium of universities and an accreditation body, which records only salted hash commitments of credentials together with issuance and revocation events. A verifier checks a credential presented by its holder against the ledger with a Merkle inclusion proof, without learning anything about other graduates. Because only commitments are stored and the salt stays with the holder and the issuer, destroying the salt makes a record unlinkable, which supports erasure requests under India's Digital Personal Data Protection Act, 2023. On a seven-node testbed using Byzantine fault-tolerant ordering, CrediChain sustained 1,850 credential issuances per second in batches and verified a credential in 38 ms at the 95th percentile. A threat analysis covers forged issuers, colluding nodes and replayed revocations. We argue that permissioned audit trails, not public tokens, are the right tool for institutional credentials.",
    keywords: 'blockchain, credential verification, Merkle trees, data protection, Byzantine fault tolerance',
    authors: [
      {
        name: 'Mohammed Irfan Khan',
        email: 'irfan.khan@coromandel-tech.example',
        affiliation:
          'Department of Information Technology, Coromandel Institute of Technology, Chennai 600119, Tamil Nadu, India',
        superscript: '1',
        corresponding: true,
      },
      {
        name: 'Elena Petrova',
        email: 'e.petrova@alpine-uas.example',
        affiliation: 'Institute of Secure Systems, Alpine University of Applied Sciences, Graz, Austria',
        superscript: '2',
        orcid: '0000-0000-0001-004X',
      },
      {
        name: 'Sanjay Iyer',
        email: 'sanjay.iyer@coromandel-tech.example',
        affiliation:
          'Department of Information Technology, Coromandel Institute of Technology, Chennai 600119, Tamil Nadu, India',
        superscript: '1',
      },
    ],
    received: '2024-12-09',
    accepted: '2025-02-14',
    publicationDate: '2025-03-01',
    sections: [
      {
        heading: 'Introduction',
        paragraphs: [
          'An employer who receives a degree certificate today usually has two options: trust the paper, or write to the issuing university and wait. Registrars answer thousands of such requests a year, often by hand, and the delay invites shortcuts. Forged certificates, some produced by convincing online services, are found regularly in recruitment and in admissions to postgraduate programmes.',
          'Several proposals put credentials on a public blockchain, following the idea of an append-only ledger kept honest by many independent parties [1]. The ledger makes tampering evident, but it also publishes every record forever, and personal data written to it cannot be erased. Transaction fees make the cost of issuing a batch of ten thousand degrees unpredictable. And the question a verifier actually asks, whether a recognised institution issued this credential and has not revoked it, depends on knowing which institutions are recognised, something a public ledger does not know.',
          'We propose CrediChain, a permissioned ledger operated by the institutions that issue credentials and by the body that accredits them. Its contributions are a data model that stores only commitments and events, never personal data; a verification protocol based on Merkle inclusion proofs; an erasure procedure compatible with data-protection law; and a performance and threat evaluation on a seven-node testbed.',
        ],
      },
      {
        heading: 'Related Work',
        paragraphs: [
          'Permissioned blockchains such as Hyperledger Fabric [2] separate transaction execution from ordering and let a known set of organisations run the ordering service, typically with a crash or Byzantine fault-tolerant protocol [3]. Verifiable credential standards [5] define how a credential and its proof are represented, but leave the question of where revocation status lives to the implementer. Certificate Transparency [6] showed that an append-only, publicly auditable log of commitments, checked with Merkle proofs [4], can make misissuance detectable without a blockchain at all; CrediChain borrows its log structure and adds replicated, consortium-governed ordering.',
        ],
      },
      {
        heading: 'Design',
        paragraphs: [
          "A credential is a signed document held by the graduate. At issuance, the university computes a commitment c = H(s || d), where d is the canonical encoding of the credential and s a 256-bit random salt, and submits an issuance event containing c, the issuer's identifier and the credential type. The salt and the credential go to the graduate; the university keeps a copy of both. The ledger itself never sees names, grades or dates of birth.",
          'Events are ordered in blocks by a Byzantine fault-tolerant ordering service run by the consortium members; with seven orderers the system tolerates two faulty or malicious ones. Each block carries the root of a Merkle tree over all commitments issued so far, so an inclusion proof for any credential has logarithmic size. Revocation is a second event type that names the commitment and a reason code; the accreditation body can also suspend an issuer, which invalidates new issuances by that issuer from that block on.',
          "To verify, the holder presents the credential, the salt and an inclusion proof obtained from any node. The verifier recomputes c, checks the proof against a block root signed by a quorum of orderers, checks the issuer's accreditation at the block of issuance, and checks that no later revocation names c. No query about the holder reaches the issuer. For erasure, issuer and holder destroy their copies of the salt: the commitment remains in the ledger, preserving the integrity of the log, but can no longer be linked to any person.",
        ],
      },
      {
        heading: 'Evaluation',
        paragraphs: [
          'We ran CrediChain on seven virtual machines with four cores and 8 GB of memory each, spread over two data centres 40 ms apart, to approximate a consortium of institutions in different cities. Table 1 reports throughput and latency. Issuance in batches of 500, which matches how universities issue degrees after a convocation, sustained 1,850 credentials per second; single issuances were limited by the ordering round trip. Verification needs no write and reached a 95th-percentile latency of 38 ms, dominated by fetching the proof from a node in the other data centre.',
          'The threat analysis considered an outsider forging an issuer, a compromised university issuing false degrees, up to two colluding orderers, and a revocation replayed to harm a graduate. Forged issuers fail at the accreditation check; a compromised university can issue false credentials, but every one is logged and attributable, and the accreditation body can suspend it; two colluding orderers cannot fork the log; and revocations are signed events bound to a single commitment, so they cannot be replayed against another credential. Figure 1 shows how verification latency grows with the size of the ledger: logarithmically, as expected from the proof size.',
        ],
        table: {
          caption: 'Throughput and latency on the seven-node testbed (median of five runs).',
          columns: ['Operation', 'Throughput (ops/s)', 'Median (ms)', '95th pct. (ms)'],
          rows: [
            ['Issuance, single', '310', '212', '348'],
            ['Issuance, batch of 500', '1,850', '1,140', '1,620'],
            ['Revocation', '295', '219', '361'],
            ['Verification', '9,400', '21', '38'],
          ],
        },
        figure: {
          caption: 'Median verification latency as the ledger grows.',
          unit: 'milliseconds',
          bars: [
            { label: '10 thousand', value: 16 },
            { label: '100 thousand', value: 18 },
            { label: '1 million', value: 21 },
            { label: '10 million', value: 24 },
          ],
        },
      },
      {
        heading: 'Conclusion',
        paragraphs: [
          "CrediChain shows that the properties wanted from blockchain credentials, tamper evidence, independent verification and resistance to a single dishonest party, can be had without publishing personal data or paying volatile fees. A consortium ledger of commitments, with Merkle proofs for verification and salt destruction for erasure, answers the verifier's question in tens of milliseconds. We are piloting the system with three affiliated colleges and a state-level accreditation cell.",
        ],
      },
    ],
    funding: 'This research received no external funding.',
    dataAvailability:
      'The testbed configuration and the benchmark scripts are available from the corresponding author.',
    references: [
      'Nakamoto, S. Bitcoin: A peer-to-peer electronic cash system. 2008. Available online: https://bitcoin.org/bitcoin.pdf.',
      'Androulaki, E.; Barger, A.; Bortnikov, V.; Cachin, C.; Christidis, K.; De Caro, A.; Enyeart, D.; Ferris, C.; Laventman, G.; Manevich, Y.; et al. Hyperledger Fabric: A distributed operating system for permissioned blockchains. In Proceedings of the 13th EuroSys Conference, 2018; pp. 30:1-30:15.',
      'Castro, M.; Liskov, B. Practical Byzantine fault tolerance. In Proceedings of the 3rd Symposium on Operating Systems Design and Implementation (OSDI), 1999; pp. 173-186.',
      "Merkle, R.C. A digital signature based on a conventional encryption function. In Advances in Cryptology - CRYPTO '87; Lecture Notes in Computer Science 293; Springer: Berlin, Germany, 1988; pp. 369-378.",
      'W3C. Verifiable Credentials Data Model v1.1. W3C Recommendation, 3 March 2022.',
      'Laurie, B.; Langley, A.; Kasper, E. Certificate Transparency. RFC 6962; Internet Engineering Task Force, 2013.',
    ],
  },
  {
    number: '004',
    title:
      'Physics-Informed Gradient Boosting for Intra-Day Forecasting of Rooftop Photovoltaic Output in Campus Microgrids',
    articleType: 'Research Article',
    abstract:
      "Campus microgrids in India increasingly rely on rooftop photovoltaic arrays, and scheduling their batteries and diesel back-up requires forecasts of solar output one to six hours ahead. Purely data-driven models need long histories that new installations lack, while physical models ignore the site's shading, soiling and inverter behaviour. We propose a physics-informed gradient-boosting forecaster that predicts the ratio between measured output and a clear-sky physical estimate, rather than the output itself, and adds features derived from satellite cloud indices and the array's recent performance. Trained on 14 months of five-minute data from a 420 kWp rooftop system in Tirunelveli, Tamil Nadu, the model reduced the root-mean-square error of one-hour-ahead forecasts by 31% relative to smart persistence and by 12% relative to gradient boosting on raw output. The advantage was largest during the monsoon months, when cloud cover changes quickly, and with short training histories: with only 60 days of data the physics-informed model matched the raw model trained on ten months. Used in the microgrid's dispatch, the forecasts reduced diesel generator running hours by 18% over a three-month trial. We describe the features, the training procedure and the limits of the approach.",
    keywords:
      'solar forecasting, photovoltaics, gradient boosting, physics-informed machine learning, microgrids',
    authors: [
      {
        name: 'Lakshmi Narayanan',
        email: 'lakshmi.n@thamirabarani-tech.example',
        affiliation:
          'Department of Electrical and Electronics Engineering, Thamirabarani University of Technology, Tirunelveli 627007, Tamil Nadu, India',
        superscript: '1',
        orcid: '0000-0000-0001-0058',
        corresponding: true,
      },
      {
        name: 'Thomas Becker',
        email: 't.becker@hanseatic-uas.example',
        affiliation:
          'Institute for Energy Systems, Hanseatic University of Applied Sciences, Bremen, Germany',
        superscript: '2',
        orcid: '0000-0000-0001-0066',
      },
      {
        name: 'Divya Raghavan',
        email: 'divya.r@thamirabarani-tech.example',
        affiliation:
          'Department of Electrical and Electronics Engineering, Thamirabarani University of Technology, Tirunelveli 627007, Tamil Nadu, India',
        superscript: '1',
      },
      {
        name: 'Ahmed Al-Mansouri',
        email: 'a.almansouri@gulfcoast-tech.example',
        affiliation: 'Department of Electrical Engineering, Gulf Coast College of Technology, Muscat, Oman',
        superscript: '3',
      },
    ],
    received: '2024-11-25',
    accepted: '2025-02-06',
    publicationDate: '2025-03-01',
    sections: [
      {
        heading: 'Introduction',
        paragraphs: [
          'Educational campuses in Tamil Nadu have installed rooftop photovoltaic capacity rapidly over the past five years, often several hundred kilowatts per campus, combined with battery storage and a diesel generator for grid outages. The microgrid controller decides every few minutes whether to charge or discharge the battery and whether to start the generator, and those decisions are only as good as its expectation of solar output over the next hours.',
          "Forecasting methods range from physical models that turn numerical weather predictions into power through a model of the array, to statistical and machine-learning models trained on the site's own history [3], [4]. Physical models need no history but miss what is particular to the site: partial shading by a water tank at certain hours, dust accumulated over the dry season, or an inverter that clips output on the brightest days. Data-driven models learn these effects but need a long history, and a model trained on raw output spends much of its capacity re-learning the motion of the sun.",
          "We combine the two in the simplest way we could find. A clear-sky physical model supplies the expected output under a cloudless sky; a gradient-boosting model [1] predicts only the ratio of actual to clear-sky output, a quantity that varies mainly with clouds and site effects. This paper describes the model, evaluates it on 14 months of data from a 420 kWp campus system, and reports a three-month trial in which its forecasts drove the microgrid's dispatch.",
        ],
      },
      {
        heading: 'Related Work',
        paragraphs: [
          'Reviews of photovoltaic forecasting [3], [4] consistently find smart persistence, which carries the current clear-sky index forward, a strong baseline at horizons below an hour, and machine-learning models ahead from one to several hours when they use cloud information. Physics-informed machine learning [6] embeds physical knowledge in learning models through their inputs, structure or loss; predicting a normalised target is the input-and-output form of this idea. Clear-sky irradiance models with turbidity corrections [2] and open libraries for array modelling [5] make the physical component easy to build.',
        ],
      },
      {
        heading: 'Method',
        paragraphs: [
          'The clear-sky estimate P_cs(t) is computed for every five-minute step from the solar position, a clear-sky irradiance model with monthly turbidity values [2], the transposition of irradiance onto the plane of each of the six sub-arrays, and a temperature-corrected module model with the nameplate inverter limits, implemented with an open modelling library [5]. The target is the clear-sky index k(t) = P(t) / P_cs(t), computed only when the sun is more than ten degrees above the horizon.',
          'Features for a forecast issued at time t for horizon h fall into three groups: recent performance (k over the last 15, 30 and 60 minutes, and its variability); satellite cloud indices over a 5 by 5 grid of cells around the site, with their change over the last hour, which indicate approaching cloud; and calendar and geometry features (solar elevation and azimuth at t + h, day of year). A separate gradient-boosted tree ensemble is trained for each horizon from 15 minutes to 6 hours, with 600 trees of depth 6, using the first 10 months for training and the last 4 for testing.',
          'The forecast of output is the predicted clear-sky index multiplied by the clear-sky estimate at the target time. We compare against smart persistence and against the same gradient-boosting configuration trained to predict output directly, with the clear-sky estimate given only as an additional feature.',
        ],
      },
      {
        heading: 'Results',
        paragraphs: [
          'Table 1 gives the normalised root-mean-square error over the four test months for three horizons. At one hour ahead the physics-informed model reduces the error by 31% against smart persistence and by 12% against raw gradient boosting. The gap narrows at six hours, where satellite cloud indices lose their predictive value and both learning models converge to the climatological clear-sky index for the hour and month.',
          'The benefit of the normalised target is clearest with short histories (Figure 1). Trained on the first 60 days only, the physics-informed model reaches an error of 14.2% at one hour, roughly what the raw model achieves after ten months of data. This matters for new installations, which are precisely where a forecaster has to start without history. Seasonally, the largest gains came in October and November, the north-east monsoon, when cloud fields move quickly across the site.',
          'During a three-month trial the microgrid controller used the forecasts to decide when to pre-charge the battery from the grid ahead of scheduled outages and when to start the generator. Compared with the same months of the previous year, which had a similar number of outage hours, diesel running hours fell by 18%, mainly because the controller no longer started the generator during short cloudy spells that it now expected to pass.',
        ],
        table: {
          caption: 'Normalised RMSE (% of nameplate capacity) on the four test months.',
          columns: ['Model', '15 min', '1 h', '6 h'],
          rows: [
            ['Smart persistence', '8.9', '18.7', '27.4'],
            ['Gradient boosting, raw output', '8.1', '14.6', '19.8'],
            ['Physics-informed (this work)', '7.4', '12.9', '19.1'],
          ],
        },
        figure: {
          caption: 'One-hour-ahead normalised RMSE by length of training history.',
          unit: 'nRMSE (%)',
          bars: [
            { label: 'Raw, 60 days', value: 17.9 },
            { label: 'Raw, 300 days', value: 14.6 },
            { label: 'Physics, 60 days', value: 14.2 },
            { label: 'Physics, 300 days', value: 12.9 },
          ],
        },
      },
      {
        heading: 'Conclusion',
        paragraphs: [
          "Predicting the clear-sky index instead of raw output lets a gradient-boosting forecaster spend its capacity on clouds and site effects rather than on the sun's motion. The resulting forecasts are more accurate at the horizons that matter for microgrid dispatch and need far less history, which makes them practical for new campus installations. The main limitation is the reliance on satellite cloud indices, which arrive with a delay of up to 20 minutes; sky cameras on the roof could close that gap at short horizons.",
        ],
      },
    ],
    funding:
      'This work was supported in part by an Indo-German academic exchange grant for collaborative research in energy systems.',
    dataAvailability:
      'Five-minute output data of the array and the trained models are available from the corresponding author on reasonable request.',
    references: [
      'Chen, T.; Guestrin, C. XGBoost: A scalable tree boosting system. In Proceedings of the 22nd ACM SIGKDD International Conference on Knowledge Discovery and Data Mining, 2016; pp. 785-794.',
      'Ineichen, P.; Perez, R. A new airmass independent formulation for the Linke turbidity coefficient. Solar Energy 2002, 73, 151-157.',
      'Antonanzas, J.; Osorio, N.; Escobar, R.; Urraca, R.; Martinez-de-Pison, F.J.; Antonanzas-Torres, F. Review of photovoltaic power forecasting. Solar Energy 2016, 136, 78-111.',
      'Yang, D.; Kleissl, J.; Gueymard, C.A.; Pedro, H.T.C.; Coimbra, C.F.M. History and trends in solar irradiance and PV power forecasting: A preliminary assessment and review using text mining. Solar Energy 2018, 168, 60-101.',
      'Holmgren, W.F.; Hansen, C.W.; Mikofski, M.A. pvlib python: A python package for modeling solar energy systems. Journal of Open Source Software 2018, 3, 884.',
      'Karniadakis, G.E.; Kevrekidis, I.G.; Lu, L.; Perdikaris, P.; Wang, S.; Yang, L. Physics-informed machine learning. Nature Reviews Physics 2021, 3, 422-440.',
    ],
  },
  {
    number: '005',
    title:
      'Test Case Prioritisation in Continuous Integration: A Review and an Empirical Comparison of Mutation-Guided and History-Based Techniques',
    articleType: 'Review Article',
    abstract:
      "Continuous integration runs a project's test suite on every change, and for large projects the suite takes long enough that the order in which tests run determines how quickly a developer learns of a failure. Test case prioritisation reorders tests so that those most likely to fail run first. This paper reviews the main families of prioritisation techniques used in continuous integration, namely coverage-based, history-based, machine-learning and mutation-guided approaches, and summarises what 47 empirical studies published between 2014 and 2024 report about their effectiveness and cost. We then compare four representative techniques on the replayed build histories of twelve open-source Java projects, 24,300 builds in total, using the average percentage of faults detected and the time to first failure. History-based prioritisation, which ranks tests by recent failures and recency of change, is cheap and strong when failures recur. Mutation-guided prioritisation, which ranks tests by their ability to kill mutants in the changed code, was best for first-time failures, reducing the median time to first failure by 38% against history-based ordering on those builds, but its analysis cost must be amortised across builds. A simple hybrid of the two performed best overall. We close with recommendations for practitioners and open problems for research.",
    keywords:
      'test case prioritisation, continuous integration, mutation testing, regression testing, empirical study',
    authors: [
      {
        name: 'Meera Subramanian',
        email: 'meera.s@pallavan-computing.example',
        affiliation:
          'Department of Software Engineering, Pallavan School of Computing, Kanchipuram 631501, Tamil Nadu, India',
        superscript: '1',
        orcid: '0000-0000-0001-0074',
        corresponding: true,
      },
      {
        name: 'Kenji Watanabe',
        email: 'k.watanabe@setouchi-tech.example',
        affiliation:
          'Graduate School of Information Science, Setouchi Institute of Technology, Okayama, Japan',
        superscript: '2',
      },
      {
        name: 'Arun Prakash',
        email: 'arun.prakash@pallavan-computing.example',
        affiliation:
          'Department of Software Engineering, Pallavan School of Computing, Kanchipuram 631501, Tamil Nadu, India',
        superscript: '1',
      },
      {
        name: 'Claire Dubois',
        email: 'claire.dubois@loire-atlantique-univ.example',
        affiliation: "Laboratoire d'Informatique, Université Loire-Atlantique, Nantes, France",
        superscript: '3',
        orcid: '0000-0000-0001-0082',
      },
    ],
    received: '2024-10-30',
    accepted: '2025-02-12',
    publicationDate: '2025-03-01',
    sections: [
      {
        heading: 'Introduction',
        paragraphs: [
          'In continuous integration every change is built and tested before it is merged, and the feedback loop it creates is only as fast as the slowest useful signal. For a project whose full suite takes forty minutes, a developer whose change breaks one test learns about it after anything between a few seconds and forty minutes, depending on where that test sits in the run order. Test case prioritisation, studied for more than two decades in regression testing [1], [2], aims to place the tests most likely to fail at the front.',
          'Continuous integration changes the problem in ways that older techniques were not designed for [3]. Builds are frequent and small, so analysis that takes longer than the tests it orders is useless. Test suites change constantly, so techniques that need a stable suite suffer. And rich history is available: thousands of previous builds with their outcomes, which suggests learning from the past.',
          'This paper has two parts. The review summarises the families of techniques proposed for prioritisation in continuous integration and what empirical studies report about them. The comparison replays the build histories of twelve open-source projects to measure four representative techniques under the same conditions, including their analysis cost, which published studies often omit.',
        ],
      },
      {
        heading: 'Review of Techniques',
        paragraphs: [
          'Coverage-based techniques order tests by the code they execute, greedily favouring tests that cover the changed lines or the most not-yet-covered code [1], [2]. They are intuitive, but coverage must be collected and kept current, and in continuous integration it is often stale by the time it is used. History-based techniques rank tests by their recent failures, how recently they failed, and how often they were run [3]; they need only the build log and are very cheap, but they cannot anticipate a failure that has never happened.',
          'Machine-learning techniques learn a ranking from features such as failure history, test age, duration and the similarity between the change and the test; reinforcement learning has been used to adapt the ranking as builds arrive [4]. Mutation-guided techniques use mutation analysis [5], [7]: small faults are injected into the changed code, and tests are ranked by how many of these mutants they detect. Because mutants are semantically close to real faults, the ranking anticipates failures that history cannot, at the price of executing tests against mutants.',
          'Of the 47 studies we reviewed, 31 evaluated on open-source projects, 9 on industrial data and 7 on both. Only 14 reported the time their technique needs to compute a ranking, and only 6 measured time to first failure, the quantity developers experience; most reported the average percentage of faults detected (APFD) over the whole run. Few compared against history-based ordering, which is the natural baseline in practice.',
        ],
      },
      {
        heading: 'Study Design',
        paragraphs: [
          'We replayed 24,300 builds of twelve Java projects with between 1,100 and 9,800 tests each, chosen for their long continuous-integration histories and deterministic test suites. Unlike fault benchmarks built from isolated, reproduced bugs [6], replayed histories keep the real sequence of changes and failures that a prioritisation technique sees in practice; builds with flaky failures, identified by re-running each failing build three times, were excluded. For each build we computed four orderings: history-based, ranking by exponentially decayed failure counts; coverage-based, additional-greedy on changed lines using coverage from the previous nightly build; mutation-guided, ranking by mutants killed among up to 200 mutants generated in the changed methods, with mutant results cached across builds; and a hybrid that takes the mutation-guided ranking for tests touching changed code and the history-based one for the rest.',
          'Effectiveness was measured by APFD and by time to first failure, the elapsed test time until the first failing test, for the 2,870 builds with at least one failure. Cost was measured as wall-clock analysis time before tests start. Builds were split into those whose failing tests had failed in the previous 30 builds (recurring failures) and those whose had not (first-time failures), since techniques differ most there.',
        ],
      },
      {
        heading: 'Results',
        paragraphs: [
          'Table 1 summarises the results. On recurring failures history-based ordering is hard to beat: its median time to first failure was 41 seconds, and the mutation-guided ordering gained nothing. On first-time failures, which were 37% of failing builds, history-based ordering fell back to roughly the default order, while mutation-guided prioritisation reduced the median time to first failure by 38%, from 9.4 to 5.8 minutes. Coverage-based ordering sat in between, hampered by coverage that was on average 14 hours old.',
          'The cost of mutation analysis was a median of 96 seconds per build with caching and more than seven minutes without; it is worthwhile only for suites long enough to absorb it, which in our sample meant suites running longer than about ten minutes. The hybrid ordering combined the strengths of both parents, matching history-based ordering on recurring failures and mutation-guided ordering on new ones, and achieved the best APFD overall (Figure 1).',
        ],
        table: {
          caption:
            'Effectiveness and cost over 2,870 failing builds (median time to first failure in minutes; APFD as mean).',
          columns: ['Technique', 'APFD', 'TTFF recurring', 'TTFF first-time', 'Analysis (s)'],
          rows: [
            ['Default order', '0.52', '11.8', '12.1', '0'],
            ['History-based', '0.81', '0.7', '9.4', '< 1'],
            ['Coverage-based', '0.74', '3.2', '7.6', '38'],
            ['Mutation-guided', '0.79', '2.9', '5.8', '96'],
            ['Hybrid', '0.86', '0.7', '5.9', '61'],
          ],
        },
        figure: {
          caption: 'Mean APFD over all failing builds by prioritisation technique.',
          unit: 'APFD',
          bars: [
            { label: 'Default', value: 0.52 },
            { label: 'Coverage', value: 0.74 },
            { label: 'Mutation', value: 0.79 },
            { label: 'History', value: 0.81 },
            { label: 'Hybrid', value: 0.86 },
          ],
        },
      },
      {
        heading: 'Conclusion',
        paragraphs: [
          'For most projects, history-based prioritisation is the right first step: it costs almost nothing and handles the common case of recurring failures well. Where suites are long and new failures frequent, adding a mutation-guided ranking for tests that touch the changed code shortens feedback substantially. Research should report time to first failure and analysis cost alongside APFD, compare against history-based ordering, and study how to keep mutation results valid as code evolves, so that their cost can be shared across builds.',
        ],
      },
    ],
    funding: 'This research received no external funding.',
    dataAvailability:
      'The list of projects and builds, the replay scripts and the per-build results are available from the corresponding author.',
    references: [
      'Rothermel, G.; Untch, R.H.; Chu, C.; Harrold, M.J. Prioritizing test cases for regression testing. IEEE Transactions on Software Engineering 2001, 27, 929-948.',
      'Yoo, S.; Harman, M. Regression testing minimization, selection and prioritization: A survey. Software Testing, Verification and Reliability 2012, 22, 67-120.',
      'Elbaum, S.; Rothermel, G.; Penix, J. Techniques for improving regression testing in continuous integration development environments. In Proceedings of the 22nd ACM SIGSOFT International Symposium on Foundations of Software Engineering (FSE), 2014; pp. 235-245.',
      'Spieker, H.; Gotlieb, A.; Marijan, D.; Mossige, M. Reinforcement learning for automatic test case prioritization and selection in continuous integration. In Proceedings of the 26th ACM SIGSOFT International Symposium on Software Testing and Analysis (ISSTA), 2017; pp. 12-22.',
      'Jia, Y.; Harman, M. An analysis and survey of the development of mutation testing. IEEE Transactions on Software Engineering 2011, 37, 649-678.',
      'Just, R.; Jalali, D.; Ernst, M.D. Defects4J: A database of existing faults to enable controlled testing studies for Java programs. In Proceedings of the 2014 International Symposium on Software Testing and Analysis (ISSTA), 2014; pp. 437-440.',
      'Papadakis, M.; Kintis, M.; Zhang, J.; Jia, Y.; Le Traon, Y.; Harman, M. Mutation testing advances: An analysis and survey. Advances in Computers 2019, 112, 275-378.',
    ],
  },
];
