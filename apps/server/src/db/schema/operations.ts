import { AppFrame, Poster } from '@campus/contract';
import { linkTable } from './link-table.js';
import { appFrames, posters, schools } from './resources.js';

/** The schools a poster or terminal ad is shown to, when its audience is "chosen schools". */
export const posterSchools = linkTable(Poster.fields.schoolIds.link, { owner: () => posters.id, target: () => schools.id });

/** The schools an app function tile is visible to; none = every school. */
export const appFrameSchools = linkTable(AppFrame.fields.schoolIds.link, { owner: () => appFrames.id, target: () => schools.id });
