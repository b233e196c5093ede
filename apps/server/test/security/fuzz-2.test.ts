// One slice of the fuzz suite (fuzz-suite.ts): the groups are shared among the files so that they run beside the rest of the suite.
import { describeFuzzSlice } from './fuzz-suite.js';

await describeFuzzSlice(1);
