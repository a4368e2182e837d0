/** The player routes' own read: whether the signed-in viewer is a super admin (the editor's extra controls). */
import { graphql } from '../../graphql/graphql.js';

export const SuperAdminQuery = graphql(`
  query PlayerViewer {
    me { user { id isSuperAdmin } }
  }
`);
