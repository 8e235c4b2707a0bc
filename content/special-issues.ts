import type { SpecialIssue } from '../common/content.ts';

/**
 * The calls for special-issue papers as first seeded (settings key `content.special-issues`); afterwards the
 * editorial office edits them in the database. A call is open until the end of its deadline day (UTC).
 * The guest editors and their institutions are fictional demo entries.
 */
export const specialIssues: SpecialIssue[] = [
  {
    id: 'trustworthy-ml-safety-critical',
    title: 'Trustworthy Machine Learning for Safety-Critical Engineering Systems',
    summary:
      'Methods that make learned components fit for systems where failure is costly: uncertainty quantification, robustness to distribution shift, explainability for engineers and certifiers, and runtime monitoring of models in transport, medical devices and industrial control.',
    guestEditors: [
      { name: 'Dr. Sunita Rao', affiliation: 'Kaveri Institute of Technology, India' },
      { name: 'Dr. Jonas Lindqvist', affiliation: 'Norrland University of Technology, Sweden' },
    ],
    deadline: '2025-07-15',
  },
  {
    id: 'edge-intelligence-iiot',
    title: 'Edge Intelligence for the Industrial Internet of Things',
    summary:
      'Inference and learning close to the machines: model compression for microcontrollers, federated and split learning on the shop floor, time-sensitive networking, and dependable data pipelines from sensors to the cloud.',
    guestEditors: [
      { name: 'Dr. Karthik Subramanian', affiliation: 'Nilgiri University, India' },
      { name: 'Dr. Mariana Costa', affiliation: 'Atlantic Polytechnic Institute, Portugal' },
    ],
    deadline: '2025-08-15',
  },
  {
    id: 'data-driven-renewable-integration',
    title: 'Data-Driven Methods for Renewable Energy Integration and Smart Grids',
    summary:
      'Forecasting, control and planning for grids with a high share of solar and wind power: probabilistic generation forecasts, demand response, storage scheduling, fault detection in photovoltaic plants, and open data sets for reproducible comparison.',
    guestEditors: [
      { name: 'Prof. Aisha Bello', affiliation: 'Savannah Federal University of Technology, Nigeria' },
      { name: 'Dr. Nguyen Thi Lan', affiliation: 'Red River University of Science and Technology, Vietnam' },
      { name: 'Dr. Arvind Balasubramanian', affiliation: 'Palghat Institute of Engineering, India' },
    ],
    deadline: '2025-11-20',
  },
  {
    id: 'verification-autonomous-robotic-systems',
    title: 'Verification and Testing of Autonomous and Robotic Systems',
    summary:
      'Evidence that autonomous systems behave as intended: formal verification of controllers and planners, scenario-based and simulation-based testing, runtime verification, and safety cases that combine proof, test and field data.',
    guestEditors: [
      { name: 'Dr. Elena Marchetti', affiliation: 'University of Monteverde, Italy' },
      { name: 'Dr. Hiroshi Tanabe', affiliation: 'Kitakami Institute of Science, Japan' },
    ],
    deadline: '2026-02-26',
  },
];
