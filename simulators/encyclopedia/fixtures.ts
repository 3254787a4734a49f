/**
 * The encyclopedia simulator's articles: a few dozen pages in three editions, modelled on the
 * real shapes (design/upstream-wire-notes.md), and every other supported edition empty (a search
 * finds no title, a summary is 404). Includes ambiguous names with disambiguation
 * pages (Mercury, Merkur, Mercure, Python), redirects, pages without a thumbnail, and a popular
 * longer title ranked above the exact one (the run-together case).
 */
import { ENCYCLOPEDIA_LANGUAGES } from '../../lib/encyclopedia/languages.js';

export interface FixturePage {
  title: string;
  description?: string;
  extract: string;
  /** File under /media/ on the simulator; absent = no thumbnail. */
  image?: string;
  disambiguation?: boolean;
  /** Upstream popularity: the simulator orders search results by it. */
  rank: number;
}

export interface Edition {
  pages: FixturePage[];
  /** Redirect title → target title. */
  redirects: Record<string, string>;
}

const p = (title: string, rank: number, extract: string, more: Partial<FixturePage> = {}): FixturePage => ({
  title,
  rank,
  extract,
  ...more,
});

export const EDITIONS: Record<string, Edition> = {
  en: {
    pages: [
      p(
        'Ada Lovelace',
        88,
        "Augusta Ada King, Countess of Lovelace, was an English mathematician and writer chiefly known for her work on Charles Babbage's proposed mechanical general-purpose computer, the Analytical Engine.",
        { description: 'English mathematician (1815–1852)', image: 'ada-lovelace.png' },
      ),
      p(
        'Ada (programming language)',
        60,
        'Ada is a structured, statically typed, imperative, and object-oriented high-level programming language.',
        { description: 'Programming language' },
      ),
      p(
        'Ada Yonath',
        40,
        'Ada E. Yonath is an Israeli crystallographer best known for her pioneering work on the structure of the ribosome.',
        { description: 'Israeli crystallographer', image: 'ada-yonath.png' },
      ),
      p(
        'Alan Turing',
        85,
        'Alan Mathison Turing was an English mathematician, computer scientist, logician, cryptanalyst, philosopher and theoretical biologist.',
        { description: 'English computer scientist (1912–1954)', image: 'alan-turing.png' },
      ),
      p(
        'Alan Turing Institute',
        95,
        "The Alan Turing Institute is the United Kingdom's national institute for data science and artificial intelligence.",
        { description: 'Research institute in London' },
      ),
      p(
        'Charles Babbage',
        70,
        'Charles Babbage was an English polymath, mathematician, philosopher, inventor and mechanical engineer who originated the concept of a digital programmable computer.',
        { description: 'English mathematician (1791–1871)', image: 'charles-babbage.png' },
      ),
      p(
        'Analytical Engine',
        50,
        'The Analytical Engine was a proposed digital mechanical general-purpose computer designed by Charles Babbage.',
        { description: 'Proposed mechanical computer' },
      ),
      p(
        'Mercury',
        50,
        'Mercury may refer to: Mercury (planet), the planet closest to the Sun; Mercury (element), a chemical element; Mercury (mythology), a Roman god.',
        { disambiguation: true, description: 'Topics referred to by the same term' },
      ),
      p(
        'Mercury (planet)',
        80,
        'Mercury is the first planet from the Sun and the smallest in the Solar System.',
        { description: 'First planet from the Sun', image: 'mercury-planet.png' },
      ),
      p('Mercury (element)', 40, 'Mercury is a chemical element; it has symbol Hg and atomic number 80.', {
        description: 'Chemical element with atomic number 80',
        image: 'mercury-element.png',
      }),
      p(
        'Mercury (mythology)',
        30,
        'Mercury is a major god in Roman religion and mythology, being one of the 12 Dii Consentes within the ancient Roman pantheon.',
        { description: 'Roman god' },
      ),
      p(
        'Freddie Mercury',
        90,
        'Freddie Mercury was a British singer and songwriter who achieved global fame as the lead vocalist and pianist of the rock band Queen.',
        { description: 'British singer (1946–1991)', image: 'freddie-mercury.png' },
      ),
      p(
        'Python',
        45,
        'Python may refer to: Python (programming language); Pythonidae, a family of snakes; Monty Python, a British comedy group.',
        { disambiguation: true, description: 'Topics referred to by the same term' },
      ),
      p(
        'Python (programming language)',
        92,
        'Python is a high-level, general-purpose programming language. Its design philosophy emphasizes code readability.',
        { description: 'General-purpose programming language', image: 'python-logo.png' },
      ),
      p(
        'Monty Python',
        75,
        'Monty Python, also known as the Pythons, were a British comedy troupe formed in 1969.',
        { description: 'British comedy troupe' },
      ),
      p('Paris', 93, 'Paris is the capital and largest city of France.', {
        description: 'Capital of France',
        image: 'paris.png',
      }),
      p(
        'Paris Hilton',
        65,
        'Paris Whitney Hilton is an American media personality, businesswoman, and socialite.',
        { description: 'American media personality' },
      ),
      p('Berlin', 89, 'Berlin is the capital and largest city of Germany, by both area and population.', {
        description: 'Capital of Germany',
        image: 'berlin.png',
      }),
      p('Zürich', 70, 'Zürich is the largest city in Switzerland and the capital of the canton of Zürich.', {
        description: 'City in Switzerland',
        image: 'zurich.png',
      }),
      p(
        'Marie Curie',
        84,
        'Marie Salomea Skłodowska-Curie was a Polish and naturalised-French physicist and chemist who conducted pioneering research on radioactivity.',
        { description: 'Polish-French physicist and chemist (1867–1934)', image: 'marie-curie.png' },
      ),
      p(
        'Rosetta Stone',
        66,
        'The Rosetta Stone is a stele of granodiorite inscribed with three versions of a decree issued in 196 BC.',
        { description: 'Ancient Egyptian stele' },
      ),
      p(
        'Earth',
        91,
        'Earth is the third planet from the Sun and the only astronomical object known to harbor life.',
        { description: 'Third planet from the Sun', image: 'earth.png' },
      ),
      p('Moon', 87, "The Moon is Earth's only natural satellite.", {
        description: "Earth's natural satellite",
        image: 'moon.png',
      }),
      p('Jupiter', 80, 'Jupiter is the fifth planet from the Sun and the largest in the Solar System.', {
        description: 'Fifth planet from the Sun',
        image: 'jupiter.png',
      }),
      p('Lovelace (film)', 35, 'Lovelace is a 2013 American biographical drama film.', {
        description: '2013 film',
      }),
      p('Main Page', 99, '', { description: '' }),
    ],
    redirects: {
      'Countess of Lovelace': 'Ada Lovelace',
      'Augusta Ada King': 'Ada Lovelace',
      'Planet Mercury': 'Mercury (planet)',
      Turing: 'Alan Turing',
      Zurich: 'Zürich',
    },
  },
  de: {
    pages: [
      p(
        'Ada Lovelace',
        80,
        'Augusta Ada Byron King, Countess of Lovelace, war eine britische Mathematikerin.',
        { description: 'britische Mathematikerin', image: 'ada-lovelace.png' },
      ),
      p(
        'Merkur',
        50,
        'Merkur steht für: Merkur (Planet), den sonnennächsten Planeten; Merkur (Mythologie), den römischen Gott.',
        { disambiguation: true, description: 'Begriffsklärung' },
      ),
      p(
        'Merkur (Planet)',
        80,
        'Der Merkur ist mit einem Durchmesser von knapp 4880 Kilometern der kleinste, sonnennächste Planet des Sonnensystems.',
        { description: 'sonnennächster Planet', image: 'mercury-planet.png' },
      ),
      p(
        'Merkur (Mythologie)',
        30,
        'Merkur ist der Gott der Händler und der Diebe in der römischen Mythologie.',
        { description: 'römischer Gott' },
      ),
      p(
        'Quecksilber',
        60,
        'Quecksilber ist ein chemisches Element mit dem Symbol Hg und der Ordnungszahl 80.',
        { description: 'chemisches Element', image: 'mercury-element.png' },
      ),
      p('Berlin', 95, 'Berlin ist die Hauptstadt und ein Land der Bundesrepublik Deutschland.', {
        description: 'Hauptstadt Deutschlands',
        image: 'berlin.png',
      }),
      p('Zürich', 75, 'Zürich ist eine Stadt in der Schweiz und Hauptort des gleichnamigen Kantons.', {
        description: 'Stadt in der Schweiz',
        image: 'zurich.png',
      }),
      p('Paris', 85, 'Paris ist die Hauptstadt der Französischen Republik.', {
        description: 'Hauptstadt Frankreichs',
        image: 'paris.png',
      }),
    ],
    redirects: { Hydrargyrum: 'Quecksilber' },
  },
  fr: {
    pages: [
      p('Ada Lovelace', 80, 'Ada Lovelace est une pionnière de la science informatique.', {
        description: 'mathématicienne britannique',
        image: 'ada-lovelace.png',
      }),
      p('Mercure', 50, 'Mercure peut désigner : Mercure (planète), Mercure (chimie), Mercure (mythologie).', {
        disambiguation: true,
        description: 'page d’homonymie',
      }),
      p(
        'Mercure (planète)',
        80,
        'Mercure est la planète la plus proche du Soleil et la moins massive du Système solaire.',
        { description: 'planète du Système solaire', image: 'mercury-planet.png' },
      ),
      p('Paris', 95, 'Paris est la commune la plus peuplée et la capitale de la France.', {
        description: 'capitale de la France',
        image: 'paris.png',
      }),
      p('Tour Eiffel', 85, 'La tour Eiffel est une tour de fer puddlé de 330 m de hauteur située à Paris.', {
        description: 'tour à Paris',
        image: 'tour-eiffel.png',
      }),
    ],
    redirects: { 'Planète Mercure': 'Mercure (planète)' },
  },
};
for (const language of ENCYCLOPEDIA_LANGUAGES) EDITIONS[language] ??= { pages: [], redirects: {} };

/** A valid 1×1 PNG: every thumbnail the simulator serves. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
