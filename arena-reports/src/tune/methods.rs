//! Weight optimisers for `arena tune`: the noisy cross-entropy method, particle swarm
//! optimisation and a genetic algorithm, written against a plain fitness vector so that they
//! can be tested on synthetic objectives without playing games.
//!
//! Every method follows the same ask/evaluate/advance cycle: its state holds the population
//! to evaluate next ([`Method::candidates`]); the caller computes one fitness per candidate
//! (higher is better) and calls [`Method::advance`] with the iteration's random numbers,
//! which updates the method and draws the next population. The whole state is plain data
//! (serde), so a checkpoint taken between two iterations resumes bit-identically.
//!
//! Weight scale: the ranking of placements by a weighted sum is invariant to a positive
//! factor, so every candidate is normalised to unit Euclidean length ([`normalise`]) before it
//! is evaluated; the methods search the unit sphere and never evaluate two scaled copies of one
//! vector as different candidates.
//!
//! Over 600 lines only with its unit tests, which check each method's private update step against
//! hand-worked values.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};
use tetris_core::generator::uniform_below;

/// CEM: share of the population kept as elites (at least one candidate).
pub const CEM_ELITE_FRACTION: f64 = 0.2;
/// CEM: standard deviation of every weight at the start (the mean starts at 0).
pub const CEM_INITIAL_STD: f64 = 1.0;
/// CEM: noise added to every weight's variance after iteration i is
/// `max(CEM_NOISE_START − i / CEM_NOISE_DECAY, 0)` (Szita & Lőrincz's decreasing noise, on
/// the scale of unit vectors: it reaches 0 after 20 iterations).
pub const CEM_NOISE_START: f64 = 0.04;
/// CEM: iterations per unit of noise decrease (see [`CEM_NOISE_START`]).
pub const CEM_NOISE_DECAY: f64 = 500.0;
/// PSO: inertia weight of the constriction form (Clerc's χ = 0.7298).
pub const PSO_INERTIA: f64 = 0.7298;
/// PSO: cognitive and social acceleration coefficients (χ · 2.05 = 1.49618).
pub const PSO_ACCELERATION: f64 = 1.49618;
/// PSO: the largest velocity component, half the width of a unit vector's component range.
pub const PSO_MAX_VELOCITY: f64 = 1.0;
/// PSO: a particle whose own best has not improved for this many iterations restarts at a
/// random position and forgets its best (the swarm's best is kept).
pub const PSO_STAGNATION: u32 = 5;
/// GA: candidates copied unchanged into the next population (elitism).
pub const GA_ELITES: usize = 2;
/// GA: candidates drawn per tournament selection.
pub const GA_TOURNAMENT: usize = 3;
/// GA: the α of blend crossover (BLX-α): a child gene is uniform on the parents' interval
/// widened by α times its length on both sides.
pub const GA_BLEND_ALPHA: f64 = 0.5;
/// GA: standard deviation of the Gaussian mutation of one gene.
pub const GA_MUTATION_STD: f64 = 0.1;

/// How far from 1 the length of a normalised vector read from a checkpoint may be: the
/// division by the length leaves a few units in the last place (about 1e-16 per weight);
/// anything beyond 1e-9 was not written by [`normalise`].
pub const UNIT_TOLERANCE: f64 = 1e-9;

/// A method's state that no run can reach (read from a checkpoint file that was edited or
/// damaged): the first inconsistency [`Method::check`] finds, named as in the file.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum StateError {
    /// The state of another method than the settings'.
    #[error("its state is {}'s, but its settings say --method {}", found.name(), expected.name())]
    Method {
        /// The state's method.
        found: MethodKind,
        /// The settings' method.
        expected: MethodKind,
    },
    /// Another number of candidates than `--population`.
    #[error("its state holds {found} candidates, expected {expected} (--population)")]
    Population {
        /// The candidates in the state.
        found: usize,
        /// The population.
        expected: usize,
    },
    /// A vector with another length than the evaluator's features.
    #[error("{vector} has {found} weights, expected {expected} (one per feature)")]
    Length {
        /// The vector, as the file names it (`particle 2's velocity`).
        vector: String,
        /// Its length.
        found: usize,
        /// The features.
        expected: usize,
    },
    /// A candidate or remembered position that is not of unit length.
    #[error("{vector} has length {length}, but candidates are normalised to length 1")]
    NotNormalised {
        /// The vector, as the file names it.
        vector: String,
        /// Its Euclidean length.
        length: f64,
    },
    /// A negative CEM deviation (a square root is never negative).
    #[error("the std's weight {index} is {value}, but a standard deviation is never negative")]
    NegativeStd {
        /// The weight.
        index: usize,
        /// Its deviation.
        value: f64,
    },
    /// A velocity component beyond the clamp.
    #[error(
        "particle {particle}'s velocity has a component {value}, beyond the clamp \
         ±{PSO_MAX_VELOCITY}"
    )]
    Velocity {
        /// The particle.
        particle: usize,
        /// The component.
        value: f64,
    },
    /// A stagnation count at which the particle would have restarted.
    #[error(
        "particle {particle} is stagnant for {found} iterations, but a particle restarts after \
         {PSO_STAGNATION}"
    )]
    Stagnant {
        /// The particle.
        particle: usize,
        /// Its count.
        found: u32,
    },
    /// A negative fitness (fitness values are means of lines or points).
    #[error("{what} has fitness {value}, but fitness is never negative")]
    NegativeFitness {
        /// Whose fitness.
        what: String,
        /// The value.
        value: f64,
    },
    /// A particle without a best whose fitness or stagnation was not reset.
    #[error(
        "particle {particle} has no best, so its best_fitness and stagnant must be 0 (as a \
         new or restarted particle's are)"
    )]
    ResetParticle {
        /// The particle.
        particle: usize,
    },
    /// A particle with a best in a swarm without one.
    #[error("particle {particle} has a best, but the swarm has none")]
    SwarmBestMissing {
        /// The particle.
        particle: usize,
    },
    /// A particle's best fitness above the swarm's.
    #[error("particle {particle}'s best fitness {found} is above the swarm's best {swarm}")]
    ParticleBeatsSwarm {
        /// The particle.
        particle: usize,
        /// Its best fitness.
        found: f64,
        /// The swarm's.
        swarm: f64,
    },
    /// A swarm fitness without a swarm best.
    #[error("the swarm has no best, so its best_fitness must be 0, not {found}")]
    SwarmFitnessWithoutBest {
        /// The fitness found.
        found: f64,
    },
}

/// Checks that `values` is normalised: unit length within [`UNIT_TOLERANCE`], or zero.
pub(crate) fn check_unit(name: &str, values: &[f64]) -> Result<(), StateError> {
    let length = euclidean_length(values);
    if length == 0.0 || (length - 1.0).abs() <= UNIT_TOLERANCE {
        return Ok(());
    }
    Err(StateError::NotNormalised {
        vector: name.to_string(),
        length,
    })
}

/// A uniform draw from [0, 1) with 53 random bits.
pub fn unit_interval<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// A standard normal draw by the Box–Muller transform (one of the pair; the other is dropped
/// so that a draw always consumes exactly two `u64`s).
pub fn standard_normal<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    // 1 − u lies in (0, 1], so the logarithm is finite.
    let radius = (-2.0 * (1.0 - unit_interval(rng)).ln()).sqrt();
    let angle = std::f64::consts::TAU * unit_interval(rng);
    radius * angle.cos()
}

/// The Euclidean length of `values` (what [`normalise`] divides by).
pub fn euclidean_length(values: &[f64]) -> f64 {
    values.iter().map(|value| value * value).sum::<f64>().sqrt()
}

/// Scales `values` to unit Euclidean length; the zero vector is left as it is.
pub fn normalise(values: &mut [f64]) {
    let length = euclidean_length(values);
    if length > 0.0 && length.is_finite() {
        for value in values.iter_mut() {
            *value /= length;
        }
    }
}

/// SplitMix64's finaliser: a bijective mix of 64 bits.
pub fn mix64(mut value: u64) -> u64 {
    value = value.wrapping_add(0x9E37_79B9_7F4A_7C15);
    value = (value ^ (value >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    value = (value ^ (value >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    value ^ (value >> 31)
}

/// A seed derived from the run's seed, a purpose and an index (distinct purposes and indexes
/// give unrelated seeds).
pub fn derived_seed(seed: u64, purpose: u64, index: u64) -> u64 {
    mix64(seed ^ mix64(purpose ^ mix64(index)))
}

/// Purpose of [`derived_seed`]: the random numbers of the initial population.
pub const SEED_INITIAL: u64 = 1;
/// Purpose of [`derived_seed`]: the random numbers of one iteration's update.
pub const SEED_UPDATE: u64 = 2;
/// Purpose of [`derived_seed`]: the first game seed of one iteration.
pub const SEED_GAMES: u64 = 3;

/// The random number generator of one purpose and index.
pub fn rng_for(seed: u64, purpose: u64, index: u64) -> Pcg64Mcg {
    Pcg64Mcg::seed_from_u64(derived_seed(seed, purpose, index))
}

/// Indices of `fitness` from best to worst (ties: lower index first).
fn ranking(fitness: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..fitness.len()).collect();
    order.sort_by(|&a, &b| fitness[b].total_cmp(&fitness[a]).then(a.cmp(&b)));
    order
}

/// A vector of `dimension` standard normal draws, normalised.
fn random_direction<R: Rng + ?Sized>(rng: &mut R, dimension: usize) -> Vec<f64> {
    let mut values: Vec<f64> = (0..dimension).map(|_| standard_normal(rng)).collect();
    normalise(&mut values);
    values
}

/// The noisy cross-entropy method's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrossEntropy {
    /// Mean of every weight's Gaussian.
    pub mean: Vec<f64>,
    /// Standard deviation of every weight's Gaussian.
    pub std: Vec<f64>,
    /// The population to evaluate next (normalised samples).
    pub population: Vec<Vec<f64>>,
    /// Every weight's starting deviation when the run started from given weights
    /// ([`CemStart`]); empty for a run from scratch, whose deviations all start at
    /// [`CEM_INITIAL_STD`]. The noise added after each iteration is scaled to it (see
    /// [`CEM_NOISE_START`]): weight i gets `noise × (start_std[i] / CEM_INITIAL_STD)²`, so a
    /// start keeps the schedule's proportions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start_std: Vec<f64>,
}

/// Where CEM starts when given weights (`arena tune --start`): its mean and deviations.
#[derive(Clone, Debug, PartialEq)]
pub struct CemStart {
    /// The starting mean: the given weights, normalised.
    pub mean: Vec<f64>,
    /// The starting deviations: `spread × |mean[i]|`, or `spread ×` the mean of `|mean|` for
    /// a weight of 0, so that every weight can move.
    pub std: Vec<f64>,
}

impl CemStart {
    /// The start at `weights` (not all 0) with deviations `spread` times each weight's size.
    pub fn new(weights: &[f64], spread: f64) -> CemStart {
        let mut mean = weights.to_vec();
        normalise(&mut mean);
        let typical = mean.iter().map(|value| value.abs()).sum::<f64>() / mean.len() as f64;
        let std = mean
            .iter()
            .map(|&value| spread * if value == 0.0 { typical } else { value.abs() })
            .collect();
        CemStart { mean, std }
    }
}

impl CrossEntropy {
    fn sample(&mut self, rng: &mut Pcg64Mcg, size: usize) {
        self.population = (0..size)
            .map(|_| {
                let mut values: Vec<f64> = self
                    .mean
                    .iter()
                    .zip(&self.std)
                    .map(|(mean, std)| mean + std * standard_normal(rng))
                    .collect();
                normalise(&mut values);
                values
            })
            .collect();
    }

    fn advance(&mut self, fitness: &[f64], iteration: u64, rng: &mut Pcg64Mcg) {
        let size = self.population.len();
        let elites = ((size as f64 * CEM_ELITE_FRACTION).ceil() as usize).clamp(1, size);
        let order = ranking(fitness);
        let chosen: Vec<&Vec<f64>> = order[..elites]
            .iter()
            .map(|&index| &self.population[index])
            .collect();
        let noise = (CEM_NOISE_START - iteration as f64 / CEM_NOISE_DECAY).max(0.0);
        for weight in 0..self.mean.len() {
            let noise = match self.start_std.get(weight) {
                Some(start) => noise * (start / CEM_INITIAL_STD).powi(2),
                None => noise,
            };
            let mean = chosen.iter().map(|values| values[weight]).sum::<f64>() / elites as f64;
            let variance = chosen
                .iter()
                .map(|values| (values[weight] - mean).powi(2))
                .sum::<f64>()
                / elites as f64;
            self.mean[weight] = mean;
            self.std[weight] = (variance + noise).sqrt();
        }
        self.sample(rng, size);
    }
}

/// One particle of the swarm.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Particle {
    /// Where it is (normalised), the candidate evaluated next.
    pub position: Vec<f64>,
    /// Its velocity.
    pub velocity: Vec<f64>,
    /// Its best position so far (`None` before its first evaluation or after a restart).
    pub best: Option<Vec<f64>>,
    /// The fitness of its best position (0 while it has none: JSON has no −∞).
    pub best_fitness: f64,
    /// Iterations since its best last improved.
    pub stagnant: u32,
}

impl Particle {
    fn random(rng: &mut Pcg64Mcg, dimension: usize) -> Particle {
        let mut position: Vec<f64> = (0..dimension)
            .map(|_| 2.0 * unit_interval(rng) - 1.0)
            .collect();
        normalise(&mut position);
        let velocity = (0..dimension)
            .map(|_| PSO_MAX_VELOCITY * (2.0 * unit_interval(rng) - 1.0))
            .collect();
        Particle {
            position,
            velocity,
            best: None,
            best_fitness: 0.0,
            stagnant: 0,
        }
    }
}

/// Particle swarm optimisation's state (global-best topology).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParticleSwarm {
    /// The particles.
    pub particles: Vec<Particle>,
    /// The swarm's best position so far.
    pub best: Option<Vec<f64>>,
    /// Its fitness (0 while there is none).
    pub best_fitness: f64,
}

impl ParticleSwarm {
    fn advance(&mut self, fitness: &[f64], rng: &mut Pcg64Mcg) {
        for (particle, &value) in self.particles.iter_mut().zip(fitness) {
            if particle.best.is_none() || value > particle.best_fitness {
                particle.best = Some(particle.position.clone());
                particle.best_fitness = value;
                particle.stagnant = 0;
            } else {
                particle.stagnant += 1;
            }
            if self.best.is_none() || value > self.best_fitness {
                self.best = Some(particle.position.clone());
                self.best_fitness = value;
            }
        }
        let swarm_best = self.best.clone().expect("the swarm was evaluated");
        let dimension = swarm_best.len();
        for particle in &mut self.particles {
            if particle.stagnant >= PSO_STAGNATION {
                *particle = Particle::random(rng, dimension);
                continue;
            }
            let own_best = particle.best.as_ref().expect("the particle was evaluated");
            for weight in 0..dimension {
                let cognitive = PSO_ACCELERATION
                    * unit_interval(rng)
                    * (own_best[weight] - particle.position[weight]);
                let social = PSO_ACCELERATION
                    * unit_interval(rng)
                    * (swarm_best[weight] - particle.position[weight]);
                let velocity = (PSO_INERTIA * particle.velocity[weight] + cognitive + social)
                    .clamp(-PSO_MAX_VELOCITY, PSO_MAX_VELOCITY);
                particle.velocity[weight] = velocity;
                particle.position[weight] += velocity;
            }
            normalise(&mut particle.position);
        }
    }
}

impl ParticleSwarm {
    /// The swarm's own rules (see [`Method::check`]): velocities, stagnation, and the bests.
    fn check(&self) -> Result<(), StateError> {
        for (index, particle) in self.particles.iter().enumerate() {
            if let Some(&value) = particle
                .velocity
                .iter()
                .find(|value| value.abs() > PSO_MAX_VELOCITY)
            {
                return Err(StateError::Velocity {
                    particle: index,
                    value,
                });
            }
            if particle.stagnant >= PSO_STAGNATION {
                return Err(StateError::Stagnant {
                    particle: index,
                    found: particle.stagnant,
                });
            }
            if particle.best_fitness < 0.0 {
                return Err(StateError::NegativeFitness {
                    what: format!("particle {index}'s best"),
                    value: particle.best_fitness,
                });
            }
            if particle.best.is_none() && (particle.best_fitness != 0.0 || particle.stagnant != 0) {
                return Err(StateError::ResetParticle { particle: index });
            }
            if particle.best.is_some() && self.best.is_none() {
                return Err(StateError::SwarmBestMissing { particle: index });
            }
            if particle.best_fitness > self.best_fitness {
                return Err(StateError::ParticleBeatsSwarm {
                    particle: index,
                    found: particle.best_fitness,
                    swarm: self.best_fitness,
                });
            }
        }
        if self.best.is_none() && self.best_fitness != 0.0 {
            return Err(StateError::SwarmFitnessWithoutBest {
                found: self.best_fitness,
            });
        }
        Ok(())
    }
}

/// The genetic algorithm's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Genetic {
    /// The population to evaluate next (normalised).
    pub population: Vec<Vec<f64>>,
}

impl Genetic {
    /// The winner of a tournament of [`GA_TOURNAMENT`] candidates drawn with replacement.
    fn select(fitness: &[f64], rng: &mut Pcg64Mcg) -> usize {
        let mut winner = uniform_below(rng, fitness.len() as u32) as usize;
        for _ in 1..GA_TOURNAMENT {
            let challenger = uniform_below(rng, fitness.len() as u32) as usize;
            if fitness[challenger] > fitness[winner]
                || (fitness[challenger] == fitness[winner] && challenger < winner)
            {
                winner = challenger;
            }
        }
        winner
    }

    fn advance(&mut self, fitness: &[f64], rng: &mut Pcg64Mcg) {
        let size = self.population.len();
        let dimension = self.population[0].len();
        let order = ranking(fitness);
        let mut next: Vec<Vec<f64>> = order
            .iter()
            .take(GA_ELITES.min(size))
            .map(|&index| self.population[index].clone())
            .collect();
        let mutation_rate = 1.0 / dimension as f64;
        while next.len() < size {
            let mother = &self.population[Self::select(fitness, rng)];
            let father = &self.population[Self::select(fitness, rng)];
            let mut child: Vec<f64> = mother
                .iter()
                .zip(father)
                .map(|(&a, &b)| {
                    let (low, high) = (a.min(b), a.max(b));
                    let spread = GA_BLEND_ALPHA * (high - low);
                    low - spread + (high - low + 2.0 * spread) * unit_interval(rng)
                })
                .collect();
            for gene in &mut child {
                if unit_interval(rng) < mutation_rate {
                    *gene += GA_MUTATION_STD * standard_normal(rng);
                }
            }
            normalise(&mut child);
            next.push(child);
        }
        self.population = next;
    }
}

/// The tuning methods' names on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MethodKind {
    /// The noisy cross-entropy method.
    Cem,
    /// Particle swarm optimisation.
    Pso,
    /// The genetic algorithm.
    Ga,
}

impl MethodKind {
    /// Every method, in the order `--help` lists them.
    pub const ALL: [MethodKind; 3] = [MethodKind::Cem, MethodKind::Pso, MethodKind::Ga];

    /// What the method is, in a few words (`--help`'s list of possible values).
    pub fn description(self) -> &'static str {
        match self {
            MethodKind::Cem => "The noisy cross-entropy method",
            MethodKind::Pso => "Particle swarm optimisation",
            MethodKind::Ga => "The genetic algorithm",
        }
    }

    /// The name on the command line: `cem`, `pso` or `ga`.
    pub fn name(self) -> &'static str {
        match self {
            MethodKind::Cem => "cem",
            MethodKind::Pso => "pso",
            MethodKind::Ga => "ga",
        }
    }
}

/// A method's whole state between two iterations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "kebab-case")]
pub enum Method {
    /// The noisy cross-entropy method.
    Cem(CrossEntropy),
    /// Particle swarm optimisation.
    Pso(ParticleSwarm),
    /// The genetic algorithm.
    Ga(Genetic),
}

impl Method {
    /// The starting state of `kind` for `population` candidates of `dimension` weights, drawn
    /// from `rng`: CEM with mean 0 and standard deviation [`CEM_INITIAL_STD`], PSO particles
    /// uniform in [−1, 1] (normalised) with velocities uniform in ±[`PSO_MAX_VELOCITY`], GA
    /// candidates in uniformly random directions.
    ///
    /// `start` (CEM only, `dimension` weights) replaces CEM's mean and deviations.
    pub fn start(
        kind: MethodKind,
        dimension: usize,
        population: usize,
        start: Option<&CemStart>,
        rng: &mut Pcg64Mcg,
    ) -> Method {
        match kind {
            MethodKind::Cem => {
                let mut state = match start {
                    None => CrossEntropy {
                        mean: vec![0.0; dimension],
                        std: vec![CEM_INITIAL_STD; dimension],
                        population: Vec::new(),
                        start_std: Vec::new(),
                    },
                    Some(start) => CrossEntropy {
                        mean: start.mean.clone(),
                        std: start.std.clone(),
                        population: Vec::new(),
                        start_std: start.std.clone(),
                    },
                };
                state.sample(rng, population);
                Method::Cem(state)
            }
            MethodKind::Pso => Method::Pso(ParticleSwarm {
                particles: (0..population)
                    .map(|_| Particle::random(rng, dimension))
                    .collect(),
                best: None,
                best_fitness: 0.0,
            }),
            MethodKind::Ga => Method::Ga(Genetic {
                population: (0..population)
                    .map(|_| random_direction(rng, dimension))
                    .collect(),
            }),
        }
    }

    /// Checks a state read from a checkpoint file against what the methods' own updates
    /// guarantee, so that a resumed run never continues from a state no run could reach:
    /// it is `kind`'s state; it holds `population` candidates; every vector has `dimension`
    /// weights; every candidate, and every position a particle or the swarm remembers, is
    /// normalised ([`normalise`]: unit length within [`UNIT_TOLERANCE`], or the zero vector);
    /// CEM's deviations are not negative; a particle's velocity stays within
    /// ±[`PSO_MAX_VELOCITY`], its stagnation below [`PSO_STAGNATION`] (it restarts there), a
    /// particle without a best has its reset fitness 0 and no stagnation, no particle's best
    /// beats the swarm's, and the swarm has a best once any particle has one. Returns the
    /// first inconsistency.
    pub fn check(
        &self,
        kind: MethodKind,
        dimension: usize,
        population: usize,
    ) -> Result<(), StateError> {
        if self.kind() != kind {
            return Err(StateError::Method {
                found: self.kind(),
                expected: kind,
            });
        }
        let candidates = self.candidates().len();
        if candidates != population {
            return Err(StateError::Population {
                found: candidates,
                expected: population,
            });
        }
        // Every vector, named as in the file, and whether it is a normalised position.
        let mut vectors: Vec<(String, &Vec<f64>, bool)> = Vec::new();
        match self {
            Method::Cem(state) => {
                vectors.push(("the mean".into(), &state.mean, false));
                vectors.push(("the std".into(), &state.std, false));
                if !state.start_std.is_empty() {
                    vectors.push(("the start std".into(), &state.start_std, false));
                }
                for (index, candidate) in state.population.iter().enumerate() {
                    vectors.push((format!("candidate {index}"), candidate, true));
                }
            }
            Method::Pso(state) => {
                for (index, particle) in state.particles.iter().enumerate() {
                    vectors.push((
                        format!("particle {index}'s position"),
                        &particle.position,
                        true,
                    ));
                    vectors.push((
                        format!("particle {index}'s velocity"),
                        &particle.velocity,
                        false,
                    ));
                    if let Some(best) = &particle.best {
                        vectors.push((format!("particle {index}'s best"), best, true));
                    }
                }
                if let Some(best) = &state.best {
                    vectors.push(("the swarm's best".into(), best, true));
                }
            }
            Method::Ga(state) => {
                for (index, candidate) in state.population.iter().enumerate() {
                    vectors.push((format!("candidate {index}"), candidate, true));
                }
            }
        }
        for (name, values, _) in &vectors {
            if values.len() != dimension {
                return Err(StateError::Length {
                    vector: name.clone(),
                    found: values.len(),
                    expected: dimension,
                });
            }
        }
        for (name, values, position) in &vectors {
            if *position {
                check_unit(name, values)?;
            }
        }
        match self {
            Method::Cem(state) => {
                for std in [&state.std, &state.start_std] {
                    if let Some(index) = std.iter().position(|&std| std < 0.0) {
                        return Err(StateError::NegativeStd {
                            index,
                            value: std[index],
                        });
                    }
                }
            }
            Method::Pso(state) => state.check()?,
            Method::Ga(_) => {}
        }
        Ok(())
    }

    /// Which method this is the state of.
    pub fn kind(&self) -> MethodKind {
        match self {
            Method::Cem(_) => MethodKind::Cem,
            Method::Pso(_) => MethodKind::Pso,
            Method::Ga(_) => MethodKind::Ga,
        }
    }

    /// The candidates to evaluate next, each normalised.
    pub fn candidates(&self) -> Vec<Vec<f64>> {
        match self {
            Method::Cem(state) => state.population.clone(),
            Method::Pso(state) => state
                .particles
                .iter()
                .map(|particle| particle.position.clone())
                .collect(),
            Method::Ga(state) => state.population.clone(),
        }
    }

    /// Updates the method with the fitness of [`Method::candidates`] (in their order; higher
    /// is better) of iteration `iteration` (from 0) and draws the next candidates from `rng`.
    pub fn advance(&mut self, fitness: &[f64], iteration: u64, rng: &mut Pcg64Mcg) {
        match self {
            Method::Cem(state) => state.advance(fitness, iteration, rng),
            Method::Pso(state) => state.advance(fitness, rng),
            Method::Ga(state) => state.advance(fitness, rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_with_a_vector_of_the_wrong_length_is_named() {
        let start = |kind| Method::start(kind, 6, 5, None, &mut rng_for(7, SEED_INITIAL, 0));
        for kind in [MethodKind::Cem, MethodKind::Pso, MethodKind::Ga] {
            assert_eq!(start(kind).check(kind, 6, 5), Ok(()));
            assert!(start(kind).check(kind, 6, 4).is_err());
        }
        let Method::Pso(mut swarm) = start(MethodKind::Pso) else {
            unreachable!()
        };
        let check = |swarm: &ParticleSwarm| {
            Method::Pso(swarm.clone())
                .check(MethodKind::Pso, 6, 5)
                .map_err(|error| error.to_string())
        };
        swarm.particles[2].velocity.pop();
        assert_eq!(
            check(&swarm),
            Err("particle 2's velocity has 5 weights, expected 6 (one per feature)".into())
        );
        swarm.particles[2].velocity.push(0.0);
        swarm.particles[0].best = Some(vec![0.0; 7]);
        assert!(check(&swarm).unwrap_err().contains("particle 0's best"));
        swarm.particles[0].best = None;
        swarm.best = Some(vec![0.0; 5]);
        assert!(check(&swarm).unwrap_err().contains("the swarm's best"));
        let Method::Cem(mut cem) = start(MethodKind::Cem) else {
            unreachable!()
        };
        cem.std.push(1.0);
        assert_eq!(
            Method::Cem(cem.clone())
                .check(MethodKind::Cem, 6, 5)
                .map_err(|error| error.to_string()),
            Err("the std has 7 weights, expected 6 (one per feature)".into())
        );
        cem.std.pop();
        cem.mean.pop();
        assert!(
            Method::Cem(cem)
                .check(MethodKind::Cem, 6, 5)
                .unwrap_err()
                .to_string()
                .contains("the mean")
        );
    }

    #[test]
    fn a_state_no_update_can_reach_is_named() {
        // A state after three updates is consistent; each edit below breaks one rule that
        // every update keeps.
        let advanced = |kind| {
            let mut method = Method::start(kind, 4, 6, None, &mut rng_for(3, SEED_INITIAL, 0));
            for iteration in 0..3 {
                let fitness: Vec<f64> = (0..6).map(|i| f64::from(i % 4)).collect();
                method.advance(&fitness, iteration, &mut rng_for(3, SEED_UPDATE, iteration));
            }
            method
        };
        let message = |method: Method| {
            let kind = method.kind();
            method.check(kind, 4, 6).unwrap_err().to_string()
        };
        for kind in [MethodKind::Cem, MethodKind::Pso, MethodKind::Ga] {
            assert_eq!(advanced(kind).check(kind, 4, 6), Ok(()));
        }
        assert_eq!(
            advanced(MethodKind::Ga)
                .check(MethodKind::Cem, 4, 6)
                .unwrap_err()
                .to_string(),
            "its state is ga's, but its settings say --method cem"
        );
        let Method::Ga(mut ga) = advanced(MethodKind::Ga) else {
            unreachable!()
        };
        ga.population[3] = vec![3.0, 0.0, 0.0, 4.0];
        assert_eq!(
            message(Method::Ga(ga)),
            "candidate 3 has length 5, but candidates are normalised to length 1"
        );
        let Method::Cem(mut cem) = advanced(MethodKind::Cem) else {
            unreachable!()
        };
        cem.std[1] = -0.5;
        assert_eq!(
            message(Method::Cem(cem)),
            "the std's weight 1 is -0.5, but a standard deviation is never negative"
        );
        let Method::Pso(swarm) = advanced(MethodKind::Pso) else {
            unreachable!()
        };
        let edited = |edit: fn(&mut ParticleSwarm)| {
            let mut swarm = swarm.clone();
            edit(&mut swarm);
            message(Method::Pso(swarm))
        };
        assert_eq!(
            edited(|swarm| swarm.particles[1].velocity[0] = 1.5),
            "particle 1's velocity has a component 1.5, beyond the clamp ±1"
        );
        assert_eq!(
            edited(|swarm| swarm.particles[2].stagnant = PSO_STAGNATION),
            "particle 2 is stagnant for 5 iterations, but a particle restarts after 5"
        );
        assert_eq!(
            edited(|swarm| {
                swarm.particles[0].best = None;
                swarm.particles[0].best_fitness = 2.0;
            }),
            "particle 0 has no best, so its best_fitness and stagnant must be 0 (as a new or \
             restarted particle's are)"
        );
        assert_eq!(
            edited(|swarm| swarm.particles[4].best_fitness = 7.0),
            "particle 4's best fitness 7 is above the swarm's best 3"
        );
        assert_eq!(
            edited(|swarm| swarm.particles[4].best_fitness = -1.0),
            "particle 4's best has fitness -1, but fitness is never negative"
        );
        assert_eq!(
            edited(|swarm| swarm.best = None),
            "particle 0 has a best, but the swarm has none"
        );
        assert_eq!(
            edited(|swarm| {
                swarm.best = None;
                for particle in &mut swarm.particles {
                    particle.best = None;
                    particle.best_fitness = 0.0;
                    particle.stagnant = 0;
                }
            }),
            "the swarm has no best, so its best_fitness must be 0, not 3"
        );
    }

    /// Maximises −‖x − t‖² for a unit target t (the optimum on the unit sphere is t itself)
    /// and returns the best candidate seen.
    fn optimise(kind: MethodKind, iterations: u64) -> (Vec<f64>, Vec<f64>) {
        let mut target = vec![0.5, -0.3, 0.8, 0.1];
        normalise(&mut target);
        let mut method = Method::start(kind, 4, 20, None, &mut rng_for(7, SEED_INITIAL, 0));
        let mut best = (f64::NEG_INFINITY, Vec::new());
        for iteration in 0..iterations {
            let candidates = method.candidates();
            let fitness: Vec<f64> = candidates
                .iter()
                .map(|candidate| {
                    -candidate
                        .iter()
                        .zip(&target)
                        .map(|(x, t)| (x - t).powi(2))
                        .sum::<f64>()
                })
                .collect();
            for (candidate, &value) in candidates.iter().zip(&fitness) {
                if value > best.0 {
                    best = (value, candidate.clone());
                }
            }
            method.advance(&fitness, iteration, &mut rng_for(7, SEED_UPDATE, iteration));
        }
        (best.1, target)
    }

    fn distance(a: &[f64], b: &[f64]) -> f64 {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y).powi(2))
            .sum::<f64>()
            .sqrt()
    }

    #[test]
    fn every_method_converges_on_a_quadratic_bowl() {
        // A random unit vector in 4 dimensions is on average ~1.4 from the target; a method
        // that converges gets within 0.05.
        for kind in [MethodKind::Cem, MethodKind::Pso, MethodKind::Ga] {
            let (best, target) = optimise(kind, 60);
            let error = distance(&best, &target);
            assert!(
                error < 0.05,
                "{kind:?}: {best:?} is {error} from {target:?}"
            );
        }
    }

    #[test]
    fn cem_mean_moves_to_the_target() {
        let mut target = vec![1.0, 2.0, -2.0];
        normalise(&mut target);
        let mut method = Method::start(
            MethodKind::Cem,
            3,
            30,
            None,
            &mut rng_for(1, SEED_INITIAL, 0),
        );
        for iteration in 0..40 {
            let fitness: Vec<f64> = method
                .candidates()
                .iter()
                .map(|candidate| -distance(candidate, &target))
                .collect();
            method.advance(&fitness, iteration, &mut rng_for(1, SEED_UPDATE, iteration));
        }
        let Method::Cem(state) = method else {
            unreachable!()
        };
        assert!(distance(&state.mean, &target) < 0.05, "{:?}", state.mean);
    }

    #[test]
    fn a_cem_start_is_the_normalised_weights_with_deviations_in_proportion() {
        // (3, 4, 0) normalises to (0.6, 0.8, 0); the mean size is 1.4 / 3, which the weight
        // of 0 gets.
        let start = CemStart::new(&[3.0, 4.0, 0.0], 0.5);
        assert_eq!(start.mean, vec![0.6, 0.8, 0.0]);
        assert_eq!(start.std, vec![0.3, 0.4, 0.5 * (1.4 / 3.0)]);
        let method = Method::start(
            MethodKind::Cem,
            3,
            4,
            Some(&start),
            &mut rng_for(2, SEED_INITIAL, 0),
        );
        assert_eq!(method.check(MethodKind::Cem, 3, 4), Ok(()));
        let Method::Cem(mut state) = method else {
            unreachable!()
        };
        assert_eq!(
            (&state.mean, &state.std, &state.start_std),
            (&start.mean, &start.std, &start.std)
        );
        // Identical elites leave no variance: each new deviation is the noise alone, after
        // iteration 0 √(0.04 × start_std²) = 0.2 × start_std (from scratch it is 0.2).
        state.population = vec![vec![0.6, 0.8, 0.0]; 4];
        state.advance(&[1.0; 4], 0, &mut rng_for(2, SEED_UPDATE, 0));
        for (std, start) in state.std.iter().zip(&start.std) {
            assert!((std - 0.2 * start).abs() < 1e-15, "{std} against {start}");
        }
        let mut scratch = CrossEntropy {
            mean: vec![0.0; 3],
            std: vec![1.0; 3],
            population: vec![vec![0.6, 0.8, 0.0]; 4],
            start_std: Vec::new(),
        };
        scratch.advance(&[1.0; 4], 0, &mut rng_for(2, SEED_UPDATE, 0));
        assert_eq!(scratch.std, vec![0.2; 3]);
    }

    #[test]
    fn normalise_gives_unit_length_and_keeps_direction() {
        // (3, 4) has length 5.
        let mut values = vec![3.0, 4.0];
        normalise(&mut values);
        assert_eq!(values, vec![0.6, 0.8]);
        let mut zero = vec![0.0, 0.0];
        normalise(&mut zero);
        assert_eq!(zero, vec![0.0, 0.0]);
    }

    #[test]
    fn draws_have_the_right_moments() {
        // 20,000 standard normal draws: mean within 0.03 of 0 (SE 0.007), variance within
        // 0.05 of 1; uniform draws stay in [0, 1) with mean near 1/2.
        let mut rng = rng_for(3, SEED_INITIAL, 0);
        let draws: Vec<f64> = (0..20_000).map(|_| standard_normal(&mut rng)).collect();
        let mean = draws.iter().sum::<f64>() / draws.len() as f64;
        let variance = draws.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / draws.len() as f64;
        assert!(mean.abs() < 0.03, "{mean}");
        assert!((variance - 1.0).abs() < 0.05, "{variance}");
        let uniform: Vec<f64> = (0..20_000).map(|_| unit_interval(&mut rng)).collect();
        assert!(uniform.iter().all(|&u| (0.0..1.0).contains(&u)));
        let mean = uniform.iter().sum::<f64>() / uniform.len() as f64;
        assert!((mean - 0.5).abs() < 0.01, "{mean}");
    }

    #[test]
    fn the_state_round_trips_through_json_exactly() {
        for kind in [MethodKind::Cem, MethodKind::Pso, MethodKind::Ga] {
            let mut method = Method::start(kind, 5, 6, None, &mut rng_for(9, SEED_INITIAL, 0));
            let fitness: Vec<f64> = (0..6).map(|i| f64::from(i) / 3.0).collect();
            method.advance(&fitness, 0, &mut rng_for(9, SEED_UPDATE, 0));
            let text = serde_json::to_string(&method).unwrap();
            let back: Method = serde_json::from_str(&text).unwrap();
            assert_eq!(back, method);
        }
    }
}
