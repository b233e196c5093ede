import type { TestProject } from 'vitest/node';
import { setupPgliteTemplate } from './template-database.js';

export default (project: TestProject) => setupPgliteTemplate(project);
