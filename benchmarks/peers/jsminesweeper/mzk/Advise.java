package mzk;

import java.io.BufferedReader;
import java.io.InputStreamReader;

import minesweeper.solver.Solver;
import minesweeper.structure.Action;

/**
 * Reads positions, one a line: "width height mines x y cells open" (cells: 0/1 mines, open: 0/1
 * cells opened, both row by row), makes the first click at (x, y) and opens the other open
 * cells, and prints the solver's first opening move: "@@ x y certain safety method" (method
 * without spaces), or "@@ none". Lines that do not start with "@@ " are the solver's own output.
 */
public class Advise {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            Solver solver = FixedBoard.parse(line).solver();
            solver.start();
            String out = "@@ none";
            for (Action a : solver.getResult()) {
                if (a.getAction() != Action.CLEAR) continue;
                String method = a.toString().replace(' ', '_');
                out = "@@ " + a.x + " " + a.y + " " + (a.isCertainty() ? 1 : 0) + " " + a.getBigProb().doubleValue() + " " + method;
                break;
            }
            System.out.println(out);
            System.out.flush();
        }
    }
}
