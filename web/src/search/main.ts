import { createApp } from 'vue';
import SearchPage from './SearchPage.vue';
import './search.css';

// The applicants' page stays light: Vue and its own styles, none of the administration pages' library.
createApp(SearchPage).mount('#app');
