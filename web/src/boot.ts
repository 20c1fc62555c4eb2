/**
 * The page's first script (a few hundred bytes, loaded before main.tsx's bundle): it starts the
 * session check at once, and main.tsx's session check takes that answer instead of asking again. A
 * page whose request carried no session cookie needs no check: nobody is signed in.
 */
import { noSessionCookie, startSessionCheck } from './session-check.ts';

if (!noSessionCookie()) startSessionCheck();
