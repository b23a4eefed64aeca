#!/usr/bin/env node
// Runs the reference solver tsumego.js on problem SGF files and prints one
// JSON object per line, so our own solver can be benchmarked against it.
//
// usage: node solve_peer.js --module DIR/node_modules/tsumego.js
//            [--ko-master attacker|defender|none] [--play "B[xy]"]... [--solve-as B|W]
//            [--ready] FILE...
//
// With --ready, a first line {"ready": true} says the module is loaded (so a
// caller can time each file without Node's start-up).  Then one line per file:
//   {"file", "to_play": "B"|"W", "move": "B[xy]"|"B[]"|null, "status": "safe"|"unsafe",
//    "nodes", "seconds", "hash_keys"}
// ("hash_keys": the board's first Zobrist key for Black and for White, which
// tsumego.js draws from its random generator; the same for every file of a run)
// or, when a file cannot be solved:
//   {"file", "error": "..."}
'use strict';

const fs = require('fs');
const path = require('path');

const USAGE = 'usage: node solve_peer.js --module DIR/node_modules/tsumego.js ' +
    '[--ko-master attacker|defender|none] [--play MOVE]... [--solve-as B|W] [--ready] FILE...';

const SIGN = { B: +1, W: -1 };
const OTHER = { B: 'W', W: 'B' };

function parseArgs(argv) {
    const opts = { module: null, koMaster: 'attacker', play: [], solveAs: null, ready: false, files: [] };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const value = () => {
            if (i + 1 >= argv.length) throw Error(`${a} needs a value`);
            return argv[++i];
        };
        if (a === '--module') opts.module = value();
        else if (a === '--ko-master') opts.koMaster = value();
        else if (a === '--play') opts.play.push(value());
        else if (a === '--solve-as') opts.solveAs = value();
        else if (a === '--ready') opts.ready = true;
        else if (a.startsWith('--')) throw Error(`unknown option ${a}`);
        else opts.files.push(a);
    }
    if (!opts.module) throw Error('--module is required');
    if (!['attacker', 'defender', 'none'].includes(opts.koMaster))
        throw Error(`--ko-master must be attacker, defender or none, not ${opts.koMaster}`);
    if (opts.solveAs !== null && !(opts.solveAs in SIGN))
        throw Error(`--solve-as must be B or W, not ${opts.solveAs}`);
    for (const m of opts.play)
        if (!/^[BW]\[([a-s]{2})?\]$/.test(m)) throw Error(`--play expects a move like B[cd] or W[], not ${m}`);
    return opts;
}

// The colour ('B' or 'W') listed at point `xy` by the AB[..][..] / AW[..] properties, or null.
function stoneColour(sgf, xy) {
    for (const [, colour, values] of sgf.matchAll(/\bA([BW])((?:\s*\[[^\]]*\])+)/g)) {
        const points = values.match(/\[([^\]]*)\]/g).map(v => v.slice(1, -1));
        if (points.includes(xy)) return colour;
    }
    return null;
}

// Which colour to solve for: --solve-as, else the opponent of the last --play move, else PL[].
function sideToPlay(sgf, opts) {
    if (opts.solveAs) return opts.solveAs;
    if (opts.play.length) return OTHER[opts.play[opts.play.length - 1][0]];
    const pl = /\bPL\[([BW])\]/.exec(sgf);
    if (!pl) throw Error('no PL[B] or PL[W]: the side to move is unknown');
    return pl[1];
}

function solveFile(tsumego, file, opts) {
    const sgf = fs.readFileSync(file, 'utf8');
    const ma = /\bMA\[([a-s]{2})\]/.exec(sgf);
    if (!ma) throw Error('no MA[] property: the target is unknown');
    const defender = stoneColour(sgf, ma[1]);
    if (!defender) throw Error(`the target MA[${ma[1]}] is not listed in AB or AW`);
    const attacker = OTHER[defender];
    const toPlay = sideToPlay(sgf, opts);
    const km = { attacker: SIGN[attacker], defender: SIGN[defender], none: 0 }[opts.koMaster];

    // Seeded before the board is built: the board draws its Zobrist keys from
    // this generator, and some of tsumego.js's caches key on a 32-bit fold of
    // the hash, so keys left over from the files before would make a file's
    // answer (not only its node count) depend on what the process solved first.
    tsumego.rand.seed(0);
    const solver = new tsumego.Solver(sgf);
    for (const m of opts.play) // a pass ("W[]") changes nothing but the side to move
        if (m.length > 3 && !solver.play(m)) throw Error(`illegal move ${m}`);

    tsumego.rand.seed(0); // the search breaks ties randomly: same input, same node count
    tsumego.stat.calls = 0;
    const start = process.hrtime.bigint();
    const move = solver.solve(toPlay, km) || null;
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;

    const defenderWins = (toPlay === defender) === (move !== null);
    return {
        file,
        to_play: toPlay,
        move,
        status: defenderWins ? 'safe' : 'unsafe',
        nodes: tsumego.stat.calls,
        seconds: Number(seconds.toFixed(6)),
        hash_keys: [solver.board.hasht_b[0] >>> 0, solver.board.hasht_w[0] >>> 0],
    };
}

function main() {
    let opts;
    try {
        opts = parseArgs(process.argv.slice(2));
    } catch (e) {
        console.error(`solve_peer.js: ${e.message}\n${USAGE}`);
        process.exit(2);
    }
    const tsumego = require(path.resolve(opts.module));
    if (!tsumego.stat || typeof tsumego.stat.calls !== 'number') {
        console.error('solve_peer.js: this tsumego.js has no stat.calls counter');
        process.exit(2);
    }
    if (opts.ready) console.log(JSON.stringify({ ready: true }));
    for (const file of opts.files) {
        let line;
        try {
            line = solveFile(tsumego, file, opts);
        } catch (e) {
            line = { file, error: e.message || String(e) };
        }
        console.log(JSON.stringify(line));
    }
}

main();
