import type { TestProject } from 'vitest/node';
import { setupPostgresTemplate } from './template-database.js';

export default (project: TestProject) => setupPostgresTemplate(project);
